// Which representation a response takes: JSON or YAML, and optionally a Table or metadata-only
// view (`as=Table;g=meta.k8s.io;v=v1`; the spec's `g=meta.orch.io` is answered in kind).
// Candidates are tried in Accept order; one whose parameters cannot be honoured is skipped,
// and when none is left the answer is 406. Protobuf (`application/vnd.kubernetes.protobuf`, or
// the spec's `application/vnd.orch.protobuf`, answered in the spelling asked for) is offered for
// the kinds that have a protobuf message; Tables have none.

import { notAcceptable } from '../api/status.ts';
import { parseAccept, type MediaRange } from './media-type.ts';
import { parseGoBool } from '../api/go-bool.ts';

export type ProtobufMediaType = 'application/vnd.kubernetes.protobuf' | 'application/vnd.orch.protobuf';
export type ResponseMediaType = 'application/json' | 'application/yaml' | ProtobufMediaType | 'application/cbor';

export function isProtobuf(mediaType: ResponseMediaType): mediaType is ProtobufMediaType {
  return mediaType === 'application/vnd.kubernetes.protobuf' || mediaType === 'application/vnd.orch.protobuf';
}
export type ViewKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
export type ViewGroup = 'meta.k8s.io' | 'meta.orch.io';
export type ViewVersion = 'v1' | 'v1beta1';

export interface View {
  as: ViewKind;
  group: ViewGroup;
  version: ViewVersion;
}

export interface Negotiated {
  mediaType: ResponseMediaType;
  view?: View;
  /** the client asked for indented output in the media type (`pretty=1`) */
  pretty?: boolean;
}

export interface NegotiateOptions {
  /** the endpoint can render Tables (resources yes; Status, subresources without printers no) */
  tableSupported: boolean;
  /** the endpoint can answer metadata-only views (default true) */
  metadataSupported?: boolean;
  /** what the endpoint answers has a protobuf form (built-in kinds; not custom resources) */
  protobufSupported?: boolean;
  /** CBOR is served (the CBORServingAndStorage gate) */
  cborSupported?: boolean;
  /**
   * the objects have no protobuf form, yet the endpoint's serializers include protobuf (custom
   * resources): metadata-only views may be protobuf, and a 406 lists it, as Kubernetes does
   */
  protobufForMetadata?: boolean;
}

export type Target = 'object' | 'list' | 'watch';

/** the media types a 406 lists for what the endpoint can offer */
function offered(target: Target, opts: NegotiateOptions): string[] {
  const types = target === 'watch' ? ['application/json;stream=watch'] : ['application/json', 'application/yaml'];
  if (opts.protobufSupported || opts.protobufForMetadata) types.push(target === 'watch' ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/vnd.kubernetes.protobuf');
  if (opts.cborSupported) types.push(target === 'watch' ? 'application/cbor-seq' : 'application/cbor');
  return types;
}

const viewGroups: readonly string[] = ['meta.k8s.io', 'meta.orch.io'];
const viewVersions: readonly string[] = ['v1', 'v1beta1'];

/** the served media type a range selects, if any (JSON is preferred for wildcards) */
function servedType(r: MediaRange, target: Target, opts: NegotiateOptions): ResponseMediaType | undefined {
  if (r.type === '*') return r.subtype === '*' ? 'application/json' : undefined;
  if (r.type !== 'application') return undefined;
  if (r.subtype === '*' || r.subtype === 'json') return 'application/json';
  // YAML has no streaming form, so a watch cannot be answered in it
  if (r.subtype === 'yaml' && target !== 'watch') return 'application/yaml';
  if ((opts.protobufSupported || opts.protobufForMetadata) && (r.subtype === 'vnd.kubernetes.protobuf' || r.subtype === 'vnd.orch.protobuf')) return `application/${r.subtype}`;
  // a watch answers CBOR as a sequence of items
  if (opts.cborSupported && (r.subtype === 'cbor' || (r.subtype === 'cbor-seq' && target === 'watch'))) return 'application/cbor';
  return undefined;
}

function viewFor(params: Record<string, string>, target: Target, opts: NegotiateOptions): View | undefined | false {
  const { as, g, v } = params;
  if (as === undefined && g === undefined && v === undefined) return undefined;
  if (!g || !viewGroups.includes(g) || !v || !viewVersions.includes(v)) return false;
  const view = { group: g as ViewGroup, version: v as ViewVersion };
  switch (as) {
    case 'Table':
      return opts.tableSupported ? { as, ...view } : false;
    case 'PartialObjectMetadata':
      return opts.metadataSupported !== false && target !== 'list' ? { as, ...view } : false;
    case 'PartialObjectMetadataList':
      return opts.metadataSupported !== false && target === 'list' ? { as, ...view } : false;
    default:
      return false;
  }
}

/** one candidate, or undefined when its parameters rule it out */
function candidate(r: MediaRange, target: Target, opts: NegotiateOptions): Negotiated | undefined {
  const mediaType = servedType(r, target, opts);
  if (!mediaType) return undefined;
  const { stream, sv, pretty } = r.params;
  if (stream && (stream !== 'watch' || mediaType === 'application/yaml' || mediaType === 'application/cbor')) return undefined;
  // a server-version override is something no endpoint here allows
  if (sv) return undefined;
  const view = viewFor(r.params, target, opts);
  if (view === false) return undefined;
  // a Table is written in JSON or YAML only (it has no protobuf message, and Kubernetes
  // offers no CBOR form of it either)
  if (view?.as === 'Table' && mediaType !== 'application/json' && mediaType !== 'application/yaml') return undefined;
  // objects without a protobuf form: only their metadata may be asked for in protobuf
  if (isProtobuf(mediaType) && !opts.protobufSupported && (!view || view.as === 'Table')) return undefined;
  const out: Negotiated = { mediaType };
  if (view) out.view = view;
  if (pretty === '1') out.pretty = true;
  return out;
}

// clients send the same few Accept headers again and again
const parsed = new Map<string, MediaRange[]>();

function acceptRanges(accept: string | undefined): MediaRange[] {
  const key = accept ?? '';
  let r = parsed.get(key);
  if (!r) {
    r = parseAccept(accept);
    if (parsed.size > 256) parsed.clear();
    parsed.set(key, r);
  }
  return r;
}

/** the representation to answer in, or a 406 StatusError listing what is served */
export function negotiateResponse(accept: string | undefined, target: Target, opts: NegotiateOptions): Negotiated {
  for (const r of acceptRanges(accept)) {
    const n = candidate(r, target, opts);
    if (n) return n;
  }
  throw notAcceptable(offered(target, opts));
}

/** the Content-Type header of a negotiated response */
export function responseContentType(n: Negotiated, mediaType: string = n.mediaType): string {
  if (!n.view) return mediaType;
  return `${mediaType};as=${n.view.as};v=${n.view.version};g=${n.view.group}`;
}

/** the apiVersion a view's objects carry: `meta.k8s.io/v1` */
export function viewApiVersion(view: View): string {
  return `${view.group}/${view.version}`;
}

/**
 * Whether to indent the response, beside the media type's own `pretty=1`: a `pretty` query
 * value read as Go reads booleans, or else a client that is a person's tool (curl, wget, a
 * browser).
 */
export function wantsPretty(prettyQuery: string | null | undefined, userAgent: string | undefined): boolean {
  if (prettyQuery) return parseGoBool(prettyQuery) ?? false;
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}
