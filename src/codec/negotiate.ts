// Which representation a response takes: JSON or YAML, and optionally a Table or metadata-only
// view (`as=Table;g=meta.k8s.io;v=v1`; the spec's `g=meta.orch.io` spelling is answered in kind).
// Protobuf and CBOR are not served yet, so clients that offer JSON too get JSON.

import { notAcceptable } from '../api/status.ts';
import { parseAccept, type MediaRange } from './media-type.ts';

export type ResponseMediaType = 'application/json' | 'application/yaml';
export type ViewKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface Negotiated {
  mediaType: ResponseMediaType;
  view?: { as: ViewKind; group: 'meta.k8s.io' | 'meta.orch.io'; version: 'v1' | 'v1beta1' };
}

export const servedMediaTypes = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function mediaTypeOf(r: MediaRange, watch: boolean): ResponseMediaType | undefined {
  if (r.type === '*' && r.subtype === '*') return 'application/json';
  if (r.type !== 'application') return undefined;
  if (r.subtype === '*' || r.subtype === 'json') return 'application/json';
  if (r.subtype === 'yaml' && !watch) return 'application/yaml';
  return undefined;
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

export function negotiateResponse(accept: string | undefined, target: 'object' | 'list' | 'watch', opts: { tableSupported: boolean }): Negotiated {
  for (const r of acceptRanges(accept)) {
    const mediaType = mediaTypeOf(r, target === 'watch');
    if (!mediaType) continue;
    const as = r.params.as;
    if (as === undefined) {
      // a view's parameters without `as` are meaningless; take the plain type
      return { mediaType };
    }
    const group = r.params.g, version = r.params.v;
    if ((group !== 'meta.k8s.io' && group !== 'meta.orch.io') || (version !== 'v1' && version !== 'v1beta1')) continue;
    if (as === 'Table') {
      if (!opts.tableSupported) continue;
      return { mediaType, view: { as, group, version } };
    }
    if (as === 'PartialObjectMetadata' && target !== 'list') return { mediaType, view: { as, group, version } };
    if (as === 'PartialObjectMetadataList' && target === 'list') return { mediaType, view: { as, group, version } };
  }
  throw notAcceptable(servedMediaTypes);
}

export function responseContentType(n: Negotiated): string {
  if (!n.view) return n.mediaType;
  return `${n.mediaType};as=${n.view.as};g=${n.view.group};v=${n.view.version}`;
}
