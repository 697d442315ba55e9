// A probe on a simulated node. An exec probe runs its command in the container, on the simulated
// shell, with the probe's timeout, and passes on exit code 0 as the kubelet judges it. HTTP, TCP
// and gRPC probes pass while the container runs: a simulated node has no network to try them on.

import type { ProbeResult } from '../agent/pods/probe-check.ts';
import type { SimContainer } from '../runtime-sim/container.ts';
import type { CoreV1Probe } from '../schema/generated/types.ts';

export async function simProbe(probe: CoreV1Probe, c: SimContainer | undefined): Promise<ProbeResult> {
  if (!c || c.state !== 'CONTAINER_RUNNING') return { ok: false, output: 'container is not running' };
  if (!probe.exec) return { ok: true, output: '' };
  const command = probe.exec.command ?? [];
  try {
    const res = await c.exec(command, probe.timeoutSeconds ?? 1);
    const output = Buffer.concat([res.stdout, res.stderr]).toString();
    return res.exitCode === 0 ? { ok: true, output } : { ok: false, output: output || `command ${JSON.stringify(command.join(' '))} exited with ${res.exitCode}` };
  } catch (err) {
    return { ok: false, output: (err as Error).message };
  }
}
