// Which processes a simulated container sees, as its CRI namespace options put it: its own
// (with any ephemeral container that joined it), its target's (NamespaceMode TARGET, kubectl
// debug --target), the pod's (shareProcessNamespace: the pause process is PID 1) or the host's
// (hostPID: every container the runtime runs). A container is one process here, named by its
// command line. containerd refuses a target that is missing, in another pod or not running, and
// so does the sim.

import type { SimContainer } from './container.ts';
import { unknown } from './grpc-errors.ts';
import type { SimRuntime } from './runtime-state.ts';
import type { CriContainerConfig } from '../agent/cri/generated/cri-types.ts';

const pidMode = (cfg: CriContainerConfig) => cfg.linux?.securityContext?.namespaceOptions?.pid ?? 'CONTAINER';
const targetOf = (cfg: CriContainerConfig) => cfg.linux?.securityContext?.namespaceOptions?.targetId ?? '';

/** a container's command line, as ps shows it ("sh" for one with no command: the image's entrypoint) */
export function commandLine(c: SimContainer): string {
  const argv = [...(c.spec.config.command ?? []), ...(c.spec.config.args ?? [])];
  return argv.length ? argv.join(' ') : 'sh';
}

/** refuses a TARGET namespace whose container cannot be joined, in containerd's words */
export function checkPidTarget(rt: SimRuntime, sandboxId: string, cfg: CriContainerConfig): void {
  if (pidMode(cfg) !== 'TARGET') return;
  const id = targetOf(cfg);
  const target = rt.containers.find(id);
  if (!target) throw unknown(`invalid target container: container "${id}" does not exist`);
  if (target.spec.sandboxId !== sandboxId) throw unknown(`invalid target container: container "${id}" (sandbox ${target.spec.sandboxId}) does not belong to sandbox ${sandboxId}`);
  if (target.state !== 'CONTAINER_RUNNING') throw unknown(`invalid target container: container "${id}" is not running - in state ${target.state}`);
}

/** the command lines of the running processes `c` sees, PID 1 first */
export function visibleProcesses(rt: SimRuntime, c: SimContainer): string[] {
  const running = rt.containers.values().filter(x => x.state === 'CONTAINER_RUNNING').sort((a, b) => a.createdAt - b.createdAt);
  const cfg = c.spec.config;
  const joined = (owner: SimContainer) => [owner, ...running.filter(x => pidMode(x.spec.config) === 'TARGET' && targetOf(x.spec.config) === owner.id)];
  switch (pidMode(cfg)) {
    case 'NODE': return running.map(commandLine);
    case 'POD': return ['/pause', ...running.filter(x => x.spec.sandboxId === c.spec.sandboxId && pidMode(x.spec.config) === 'POD').map(commandLine)];
    case 'TARGET': {
      const owner = rt.containers.find(targetOf(cfg));
      return owner ? joined(owner).filter(x => x.state === 'CONTAINER_RUNNING').map(commandLine) : [commandLine(c)];
    }
    default: return joined(c).filter(x => x === c || x.state === 'CONTAINER_RUNNING').map(commandLine);
  }
}
