// ExecSync, Exec, Attach, PortForward and CheckpointContainer: calls that act inside a running
// container or pod.

import { findContainer } from './container-handlers.ts';
import { writeCheckpoint } from './checkpoint.ts';
import { deadlineExceeded, invalidArgument, notFound, unimplemented, unknown } from './grpc-errors.ts';
import type { Handlers } from './handlers.ts';
import type { SimRuntime } from './runtime-state.ts';

export function execHandlers(rt: SimRuntime): Handlers {
  const streaming = () => {
    if (!rt.streaming) throw unimplemented('Exec');
    return rt.streaming;
  };
  return {
    async ExecSync(req) {
      const c = findContainer(rt, req.containerId);
      return c.exec(req.cmd ?? [], Number(req.timeout ?? 0));
    },

    // the streaming calls answer a URL on the sim's streaming server, as containerd's do
    async Exec(req) {
      const c = findContainer(rt, req.containerId);
      if (!req.cmd?.length) throw invalidArgument('cmd must not be empty');
      if (!req.stdin && !req.stdout && !req.stderr) throw invalidArgument('one of stdin, stdout, or stderr must be set');
      if (c.state !== 'CONTAINER_RUNNING') throw unknown(`container ${c.id} is not running`);
      return { url: streaming().add({ kind: 'exec', containerId: c.id, cmd: req.cmd, stdin: !!req.stdin, stdout: !!req.stdout, stderr: !!req.stderr && !req.tty, tty: !!req.tty }) };
    },

    async Attach(req) {
      const c = findContainer(rt, req.containerId);
      if (!req.stdin && !req.stdout && !req.stderr) throw invalidArgument('one of stdin, stdout, and stderr must be set');
      if (c.state !== 'CONTAINER_RUNNING') throw unknown(`container ${c.id} is not running`);
      return { url: streaming().add({ kind: 'attach', containerId: c.id, stdin: !!req.stdin, stdout: !!req.stdout, stderr: !!req.stderr && !req.tty, tty: !!req.tty }) };
    },

    async PortForward(req) {
      const sb = rt.sandboxes.find(req.podSandboxId);
      if (!sb) throw notFound(`failed to find sandbox id "${req.podSandboxId}": not found`);
      if (sb.state !== 'SANDBOX_READY') throw unknown(`sandbox container "${sb.id}" is not running`);
      return { url: streaming().add({ kind: 'portforward', podSandboxId: sb.id }) };
    },

    async CheckpointContainer(req) {
      if (!rt.settings.checkpoint) throw unimplemented('CheckpointContainer');
      const c = findContainer(rt, req.containerId);
      if (!req.location) throw invalidArgument('checkpoint location must be set');
      if (c.state !== 'CONTAINER_RUNNING') throw unknown(`container "${c.id}" is not running`);
      // the dump takes its time; a timeout (seconds, 0 = none) shorter than that ends it with nothing written
      const delay = rt.settings.checkpointDelayMs;
      const timeoutMs = Number(req.timeout ?? 0) * 1000;
      if (timeoutMs > 0 && delay > timeoutMs) {
        await new Promise<void>(r => rt.settings.clock.after(timeoutMs, r));
        throw deadlineExceeded(`checkpointing container "${c.id}" did not finish within ${req.timeout}s`);
      }
      if (delay > 0) await new Promise<void>(r => rt.settings.clock.after(delay, r));
      await writeCheckpoint(c, req.location, rt.settings.clock.now());
      rt.settings.log.debug('container checkpointed', { id: c.id, location: req.location });
      return {};
    },
  };
}
