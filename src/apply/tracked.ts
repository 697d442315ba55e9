// Which fields field managers can own: the server sets identity, versioning and deletion
// metadata itself, the main resource never owns status, and a subresource owns only the
// fields it declares (status; spec.replicas through scale).

import { FieldSet } from './field-set.ts';

const serverMetadata = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'managedFields'];

/**
 * `set` without the fields nobody owns through a write that may own only the paths in `owns`
 * (a subresource's own fields); `owns` undefined: a write of the main resource, which owns
 * status only when `ownsStatus` (a custom resource without a status subresource)
 */
export function trackedOnly(set: FieldSet, owns?: ReadonlyArray<readonly string[]>, ownsStatus = false): FieldSet {
  const out = new FieldSet();
  if (owns) {
    for (const path of owns) {
      let node: FieldSet | undefined = set;
      for (const f of path) node = node?.children.get(`f:${f}`);
      if (!node || node.empty) continue;
      let into = out;
      for (const f of path.slice(0, -1)) {
        let next = into.children.get(`f:${f}`);
        if (!next) into.children.set(`f:${f}`, next = new FieldSet());
        into = next;
      }
      into.children.set(`f:${path[path.length - 1]}`, node.clone());
    }
    return out;
  }
  for (const [pe, child] of set.children) {
    if (pe === 'f:apiVersion' || pe === 'f:kind' || (pe === 'f:status' && !ownsStatus)) continue;
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
