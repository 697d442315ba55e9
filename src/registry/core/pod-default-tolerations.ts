// What Kubernetes' DefaultTolerationSeconds admission does: a new pod that does not already
// tolerate the not-ready and unreachable NoExecute taints gets tolerations for them lasting
// 300 seconds, so a short node outage does not evict it at once.

export const defaultTolerationSeconds = 300;

interface Toleration { key?: string; operator?: string; effect?: string; tolerationSeconds?: number }

const taintKeys = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

function toleratesNoExecute(list: Toleration[], key: string): boolean {
  return list.some(t => (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute') && (t.key === key || ((t.key ?? '') === '' && t.operator === 'Exists')));
}

export function addDefaultTolerations(spec: Record<string, unknown>): void {
  const list = (Array.isArray(spec.tolerations) ? spec.tolerations : []) as Toleration[];
  const added = taintKeys.filter(k => !toleratesNoExecute(list, k)).map(key => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds }));
  if (added.length) spec.tolerations = [...list, ...added];
}
