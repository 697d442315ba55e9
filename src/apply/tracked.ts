// Which fields field managers can own, per subresource: the server sets identity, versioning
// and deletion metadata itself, the main resource never owns status, and a subresource owns
// only its own part (status; spec.replicas through scale).

import { FieldSet } from './field-set.ts';

const serverMetadata = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'managedFields'];

/** `set` without the fields nobody owns through `subresource` */
export function trackedOnly(set: FieldSet, subresource: string): FieldSet {
  const out = new FieldSet();
  if (subresource === 'status') {
    const status = set.children.get('f:status');
    if (status && !status.empty) out.children.set('f:status', status.clone());
    return out;
  }
  if (subresource === 'scale') {
    if (set.children.get('f:spec')?.children.get('f:replicas')?.member) out.insert(['f:spec', 'f:replicas']);
    return out;
  }
  for (const [pe, child] of set.children) {
    if (pe === 'f:apiVersion' || pe === 'f:kind' || pe === 'f:status') continue;
    if (pe === 'f:metadata') {
      const meta = new FieldSet();
      for (const [k, c] of child.children) if (!serverMetadata.includes(k.slice(2))) meta.children.set(k, c.clone());
      if (!meta.empty) out.children.set(pe, meta);
      continue;
    }
    out.children.set(pe, child.clone());
  }
  return out;
}
