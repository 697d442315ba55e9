// A metav1.LabelSelector as Go's %v prints the pointer the disruption controller formats into its
// UnmanagedPods event: the generated String() of the type, maps with sorted keys.

import type { MetaV1LabelSelector } from '../../schema/generated/types.ts';

export function goLabelSelector(sel: MetaV1LabelSelector | undefined): string {
  if (!sel) return 'nil';
  const labels = Object.keys(sel.matchLabels ?? {}).sort().map(k => `${k}: ${sel.matchLabels![k]},`).join('');
  const exprs = (sel.matchExpressions ?? []).map(e => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
