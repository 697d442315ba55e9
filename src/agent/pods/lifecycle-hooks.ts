// postStart and preStop hooks as the kubelet runs them: exec through the runtime, an HTTP GET to
// the pod, or a sleep, each bounded by the time it may take (for preStop, the grace period).
// A failed hook is described in the kubelet's words, for the FailedPostStartHook and
// FailedPreStopHook events.

import { checkProbe, type ProbeTarget } from './probe-check.ts';
import type { Pod } from './types.ts';
import type { CoreV1LifecycleHandler } from '../../schema/generated/types.ts';

/** the pod as the kubelet names it in messages: name_namespace(uid) */
const podName = (pod: Pod) => `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;

/** Go's %v of a string slice */
const goSlice = (xs: readonly string[] | undefined) => `[${(xs ?? []).join(' ')}]`;

/** runs the hook; undefined when it succeeded, else why it failed */
export async function runHook(h: CoreV1LifecycleHandler, target: ProbeTarget, pod: Pod, timeoutSeconds: number, sleep: (ms: number) => Promise<void>): Promise<string | undefined> {
  const container = target.container.name;
  if (h.sleep) {
    await sleep(Math.min(Math.max(0, h.sleep.seconds ?? 0), timeoutSeconds) * 1000);
    return undefined;
  }
  const timeout = Math.max(1, Math.floor(timeoutSeconds));
  if (h.exec) {
    const r = await checkProbe({ exec: h.exec, timeoutSeconds: timeout }, target);
    return r.ok ? undefined : `Exec lifecycle hook (${goSlice(h.exec.command)}) for Container "${container}" in Pod "${podName(pod)}" failed - error: ${r.output}, message: ${JSON.stringify(r.output)}`;
  }
  if (h.httpGet) {
    const r = await checkProbe({ httpGet: h.httpGet, timeoutSeconds: timeout }, target);
    return r.ok ? undefined : `HTTP lifecycle hook (${h.httpGet.path ?? ''}) for Container "${container}" in Pod "${podName(pod)}" failed - error: ${r.output}`;
  }
  if (h.tcpSocket) return undefined; // deprecated: accepted and not run, as the kubelet does
  return `lifecycle hook for Container "${container}" in Pod "${podName(pod)}" has no handler`;
}
