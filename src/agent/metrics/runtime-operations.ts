// kubelet_runtime_operations_*: every CRI call timed and counted under the operation name the
// kubelet's instrumented runtime service gives it (run_podsandbox, create_container, ...).

import type { CriClient } from '../cri/client.ts';

// the one name that is not its method's in snake case
const renamed: Record<string, string> = { updateContainerResources: 'update_container' };

/** `runPodSandbox` → `run_podsandbox`, `listContainerStats` → `list_container_stats` */
export function operationType(method: string): string {
  return renamed[method] ?? method.replace(/[A-Z]/g, c => `_${c.toLowerCase()}`).replace(/pod_sandbox/g, 'podsandbox');
}

export type RuntimeObserver = (operation: string, seconds: number, failed: boolean) => void;

/** the same client, each call reported to `observe` once it is answered */
export function instrumentCri(cri: CriClient, observe: RuntimeObserver): CriClient {
  const out: Record<string, unknown> = {};
  for (const [method, fn] of Object.entries(cri)) {
    if (typeof fn !== 'function' || method === 'close') { out[method] = fn; continue; }
    const operation = operationType(method);
    out[method] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        const res = await (fn as (...a: unknown[]) => Promise<unknown>).apply(cri, args);
        observe(operation, (performance.now() - started) / 1000, false);
        return res;
      } catch (err) {
        observe(operation, (performance.now() - started) / 1000, true);
        throw err;
      }
    };
  }
  return out as CriClient;
}
