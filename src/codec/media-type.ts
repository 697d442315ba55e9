// Media types as HTTP carries them: Accept lists with parameters and q-values, and the
// Content-Type of request bodies, mapped to the body kinds the API server reads.

import { unsupportedMediaType } from '../api/status.ts';

export interface MediaType {
  type: string; // 'application', '*'
  subtype: string; // 'json', 'yaml', '*'
  /** parameter names in lower case; values as sent, without surrounding quotes */
  params: Record<string, string>;
}

export interface MediaRange extends MediaType {
  q: number;
}

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `type/subtype; k=v; ...`, or undefined when the type itself is malformed */
export function parseMediaType(text: string): MediaType | undefined {
  const [mt, ...ps] = text.split(';');
  const slash = mt!.indexOf('/');
  if (slash < 0) return undefined;
  const type = mt!.slice(0, slash).trim().toLowerCase();
  const subtype = mt!.slice(slash + 1).trim().toLowerCase();
  if (!token.test(type) || !token.test(subtype)) return undefined;
  const params: Record<string, string> = {};
  for (const p of ps) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    if (k) params[k] = v;
  }
  return { type, subtype, params };
}

function specificity(r: MediaRange): number {
  return (r.type === '*' ? 0 : 2) + (r.subtype === '*' ? 0 : 1);
}

/**
 * The ranges of an Accept header, most preferred first: by q-value, then the more specific
 * range, then the order given. Ranges with q=0 (refused) and malformed ones are dropped; no
 * header at all accepts anything.
 */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const out: Array<MediaRange & { order: number }> = [];
  header.split(',').forEach((part, order) => {
    const m = parseMediaType(part);
    if (!m) return;
    let q = 1;
    if ('q' in m.params) {
      q = Number(m.params.q);
      delete m.params.q;
      if (!Number.isFinite(q)) q = 0;
    }
    if (!(q > 0)) return;
    out.push({ ...m, q: Math.min(q, 1), order });
  });
  out.sort((a, b) => b.q - a.q || specificity(b) - specificity(a) || a.order - b.order);
  return out.map(({ order: _o, ...r }) => r);
}

export type BodyKind = 'json' | 'yaml' | 'protobuf' | 'cbor' | 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply-yaml' | 'apply-cbor';

/** the media type of each body kind (the first spelling is the one error messages list) */
export const bodyKindMediaTypes: Record<BodyKind, string[]> = {
  json: ['application/json'],
  yaml: ['application/yaml'],
  protobuf: ['application/vnd.kubernetes.protobuf', 'application/vnd.orch.protobuf'],
  'json-patch': ['application/json-patch+json'],
  'merge-patch': ['application/merge-patch+json'],
  'strategic-merge-patch': ['application/strategic-merge-patch+json'],
  'apply-yaml': ['application/apply-patch+yaml'],
  cbor: ['application/cbor'],
  'apply-cbor': ['application/apply-patch+cbor'],
};

// read only while the CBORServingAndStorage gate is on
const cborKinds: readonly BodyKind[] = ['cbor', 'apply-cbor'];

const kindOfMediaType = new Map<string, BodyKind>(
  Object.entries(bodyKindMediaTypes).flatMap(([kind, types]) => types.map(t => [t, kind as BodyKind] as const)),
);

/** bodies of create and update (and of delete options) */
export const objectBodyKinds: readonly BodyKind[] = ['json', 'yaml', 'protobuf', 'cbor'];
/** bodies of patch, in the order Kubernetes lists them */
export const patchBodyKinds: readonly BodyKind[] = ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply-yaml', 'apply-cbor'];

/** what a 415 for an object body lists, as Kubernetes lists it */
export const acceptedBodyTypes = objectBodyKinds.filter(k => !cborKinds.includes(k)).map(k => bodyKindMediaTypes[k][0]!);

/**
 * The kind of a request body from its Content-Type (none means JSON). Anything not among
 * `allowed` (default: the object bodies) is a 415 listing the allowed media types. CBOR bodies
 * are read only when `cbor` says the gate is on; otherwise they are refused like any unknown type.
 */
export function parseContentType(header: string | undefined, allowed: readonly BodyKind[] = objectBodyKinds, opts: { cbor?: boolean } = {}): BodyKind {
  if (!opts.cbor) allowed = allowed.filter(k => !cborKinds.includes(k));
  const refuse = () => unsupportedMediaType(allowed.map(k => bodyKindMediaTypes[k][0]!));
  const text = header?.trim();
  if (!text) {
    if (!allowed.includes('json')) throw refuse();
    return 'json';
  }
  const m = parseMediaType(text);
  const kind = m && kindOfMediaType.get(`${m.type}/${m.subtype}`);
  if (!kind || !allowed.includes(kind)) throw refuse();
  return kind;
}
