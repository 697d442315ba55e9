// What Kubernetes' DefaultTolerationSeconds admission does: a new pod that does not already
// tolerate the not-ready and unreachable NoExecute taints gets tolerations for them lasting
// 300 seconds, so a short node outage does not evict it at once.

import type { CoreV1PodSpec, CoreV1Toleration } from '../../schema/generated/types.ts';

export const defaultTolerationSeconds = 300;

const taintKeys = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

function toleratesNoExecute(list: CoreV1Toleration[], key: string): boolean {
  return list.some(t => (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') && (t.key === key || ((t.key ?? '') === '' && t.operator === 'Exists')));
}

export function addDefaultTolerations(spec: Pick<CoreV1PodSpec, 'tolerations'>): void {
  const list = spec.tolerations ?? [];
  const added = taintKeys.filter(k => !toleratesNoExecute(list, k)).map(key => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds }));
  if (added.length) spec.tolerations = [...list, ...added];
}
