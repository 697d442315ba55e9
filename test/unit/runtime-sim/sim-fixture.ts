// A runtime sim on a socket in its own temp dir, reached through the agent's CRI client, and
// helpers for the pods and containers tests make.

import type { TestContext } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectCri, type CriClient } from '../../../src/agent/cri/client.ts';
import { CriError } from '../../../src/agent/cri/errors.ts';
import { startRuntimeSim, type RuntimeSim, type RuntimeSimOptions } from '../../../src/runtime-sim/server.ts';
import type { CriContainerStatus } from '../../../src/agent/cri/generated/cri-types.ts';

type Msg = Record<string, any>;

export interface SimFixture {
  dir: string;
  sim: RuntimeSim;
  cri: CriClient;
  /** runs a sandbox for pod `name`; its logs go under <dir>/pods/<name> */
  runPod(name: string, extra?: Msg): Promise<{ podSandboxId: string; sandboxConfig: Msg }>;
  /** creates (and by default starts) a busybox container in the pod */
  runContainer(pod: { podSandboxId: string; sandboxConfig: Msg }, config: Msg, start?: boolean): Promise<string>;
}

export async function startSim(t: TestContext, opts: Partial<RuntimeSimOptions> = {}): Promise<SimFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-sim-'));
  const sim = await startRuntimeSim({ socket: join(dir, 'cri.sock'), preloadedImages: ['busybox'], ...opts });
  const cri = await connectCri(sim.endpoint, { timeoutMs: 10_000 });
  t.after(async () => {
    cri.close();
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir, sim, cri,
    async runPod(name, extra = {}) {
      const sandboxConfig = { metadata: { name, namespace: 'default', uid: `uid-${name}`, attempt: 0 }, hostname: name, logDirectory: join(dir, 'pods', name), ...extra };
      const { podSandboxId } = await cri.runPodSandbox({ config: sandboxConfig });
      return { podSandboxId, sandboxConfig };
    },
    async runContainer(pod, config, start = true) {
      const name = config.metadata?.name ?? 'c';
      const { containerId } = await cri.createContainer({
        podSandboxId: pod.podSandboxId,
        sandboxConfig: pod.sandboxConfig,
        config: { metadata: { name, attempt: 0 }, image: { image: 'busybox' }, logPath: `${name}/0.log`, ...config },
      });
      if (start) await cri.startContainer({ containerId });
      return containerId;
    },
  };
}

/** polls until ok(value), failing after timeoutMs */
export async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(v)}`);
    await new Promise(r => setTimeout(r, 20));
  }
}

/** the container's status once it has exited */
export function exited(cri: CriClient, containerId: string, timeoutMs = 5000): Promise<CriContainerStatus> {
  return waitFor(async () => (await cri.containerStatus({ containerId })).status!, s => s.state === 'CONTAINER_EXITED', timeoutMs);
}

/** for assert.rejects: a CriError with this gRPC code (and message, when given) */
export function criError(code: string, message?: RegExp) {
  return (err: unknown) => err instanceof CriError && err.code === code && (!message || message.test(err.message));
}
