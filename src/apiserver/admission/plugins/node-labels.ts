// Which of its own labels a node may set (NodeRestriction): none under
// node-restriction.kubernetes.io/ (labels an administrator puts on nodes to steer workloads
// to them, which a node must not claim for itself), and of kubernetes.io and k8s.io labels only
// the ones the kubelet owns — hostname, zone, region, instance type, os, arch and anything under
// kubelet.kubernetes.io/ or node.kubernetes.io/.

const kubeletLabels = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const kubeletLabelNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const prefixOf = (key: string) => { const i = key.indexOf('/'); return i < 0 ? '' : key.slice(0, i); };
const within = (ns: string, domain: string) => ns === domain || ns.endsWith(`.${domain}`);

function isKubeletLabel(key: string): boolean {
  return kubeletLabels.has(key) || kubeletLabelNamespaces.some(d => within(prefixOf(key), d));
}

function isKubernetesLabel(key: string): boolean {
  const ns = prefixOf(key);
  return within(ns, 'kubernetes.io') || within(ns, 'k8s.io');
}

/** keys added, removed or changed between two label sets */
export function modifiedLabels(now: Record<string, string> | undefined, before: Record<string, string> | undefined): string[] {
  const a = now ?? {}, b = before ?? {};
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter(k => a[k] !== b[k]);
}

/** the modified labels a node may not set, sorted as Kubernetes lists them */
export function forbiddenNodeLabels(modified: string[]): string[] {
  return modified.filter(k => within(prefixOf(k), 'node-restriction.kubernetes.io') || (isKubernetesLabel(k) && !isKubeletLabel(k))).sort();
}
