// Media types as HTTP carries them: Accept lists with parameters and q-values, and the
// request body types the API server takes.

import { unsupportedMediaType } from '../api/status.ts';

export interface MediaRange {
  type: string; // 'application', '*'
  subtype: string; // 'json', 'yaml', '*'
  params: Record<string, string>;
  q: number;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const out: Array<MediaRange & { order: number }> = [];
  header.split(',').forEach((part, order) => {
    const [mt, ...ps] = part.split(';').map(s => s.trim());
    if (!mt) return;
    const [type, subtype] = mt.toLowerCase().split('/');
    if (!type || !subtype) return;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of ps) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    if (!(q > 0)) return;
    out.push({ type, subtype, params, q, order });
  });
  // stable: by q descending, then as listed
  return out.sort((a, b) => b.q - a.q || a.order - b.order).map(({ order: _o, ...r }) => r);
}

export type BodyKind = 'json' | 'yaml' | 'protobuf' | 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply-yaml';

const bodyKinds: Record<string, BodyKind> = {
  'application/json': 'json',
  'application/yaml': 'yaml',
  'application/vnd.kubernetes.protobuf': 'protobuf',
  'application/vnd.orch.protobuf': 'protobuf',
  'application/json-patch+json': 'json-patch',
  'application/merge-patch+json': 'merge-patch',
  'application/strategic-merge-patch+json': 'strategic-merge-patch',
  'application/apply-patch+yaml': 'apply-yaml',
};

export const acceptedBodyTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** the kind of a request body from its Content-Type; 415 for anything else */
export function parseContentType(header: string | undefined): BodyKind {
  const mt = (header ?? 'application/json').split(';')[0]!.trim().toLowerCase() || 'application/json';
  const kind = bodyKinds[mt];
  if (!kind) throw unsupportedMediaType(acceptedBodyTypes);
  return kind;
}
