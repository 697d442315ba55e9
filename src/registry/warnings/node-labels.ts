// Node labels Kubernetes deprecated, and what a pod's scheduling constraints that name them are
// told (kube-apiserver's pkg/api/node): the label still works, its replacement is named.

const deprecatedNodeLabels: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  'app.kubernetes.io/created-by': 'deprecated since v1.9',
  'scheduler.alpha.kubernetes.io/preferAvoidPods': 'deprecated since v1.22; use Taints and Tolerations instead',
  'node-role.kubernetes.io/master': 'use "node-role.kubernetes.io/control-plane" instead',
};

/** why a node label is deprecated; undefined when it is not */
export function nodeLabelDeprecation(key: string): string | undefined {
  return Object.hasOwn(deprecatedNodeLabels, key) ? deprecatedNodeLabels[key] : undefined;
}

interface SelectorTerm { matchExpressions?: Array<{ key?: string }> | null }

/** a node selector term's expressions on deprecated labels (its matchFields name no labels) */
export function nodeSelectorTermWarnings(term: SelectorTerm | null | undefined, path: string): string[] {
  const out: string[] = [];
  (term?.matchExpressions ?? []).forEach((e, i) => {
    const msg = nodeLabelDeprecation(e?.key ?? '');
    if (msg) out.push(`${path}.matchExpressions[${i}].key: ${e.key} is ${msg}`);
  });
  return out;
}
