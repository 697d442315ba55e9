// Kubernetes' CEL URL library: url() and isURL() accept what Go's url.ParseRequestURI accepts
// (an absolute URI or an absolute path, no fragment), and the getters answer as Go's url.URL
// does: getHost keeps the port and an IPv6 host's brackets, getHostname drops both, getPort is ''
// when none was written (a default port is not filled in, unlike WHATWG URLs).

import { CelScalar, celFunc, celMethod, listType, mapType, type CelFunc } from '@bufbuild/cel';
import { URL_TYPE, descs, fieldsOf, make } from './types.ts';

const { STRING, BOOL } = CelScalar;

export interface ParsedUrl { scheme: string; host: string; path: string; rawQuery: string }

/** url.ParseRequestURI's reading, or its error */
export function parseRequestUri(raw: string): ParsedUrl | Error {
  const invalid = () => new Error(`parse ${JSON.stringify(raw)}: invalid URI for request`);
  if (/[\x00-\x1f\x7f ]/.test(raw)) {
    return new Error(`parse ${JSON.stringify(raw)}: net/url: invalid control character in URL`);
  }
  const q = raw.indexOf('?');
  const rest = q < 0 ? raw : raw.slice(0, q);
  const rawQuery = q < 0 ? '' : raw.slice(q + 1);
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/.exec(rest);
  if (!m) {
    if (!rest.startsWith('/')) return invalid();
    return { scheme: '', host: '', path: rest, rawQuery };
  }
  const scheme = m[1]!.toLowerCase();
  let after = m[2]!;
  if (!after.startsWith('/')) return invalid(); // opaque forms (mailto:x) are not request URIs
  let host = '';
  if (after.startsWith('//')) {
    after = after.slice(2);
    const slash = after.indexOf('/');
    let authority = slash < 0 ? after : after.slice(0, slash);
    after = slash < 0 ? '' : after.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.slice(at + 1);
    if (!/^(\[[0-9a-fA-F:.%\w]+\]|[^\[\]:]*)(:[0-9]*)?$/.test(authority)) {
      return new Error(`parse ${JSON.stringify(raw)}: invalid port ${JSON.stringify(authority.slice(authority.lastIndexOf(':')))} after host`);
    }
    host = authority;
  }
  return { scheme, host, path: after, rawQuery };
}

function parsed(v: unknown): ParsedUrl {
  const r = parseRequestUri(fieldsOf<{ raw: string }>(v).raw);
  if (r instanceof Error) throw r;
  return r;
}

function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

function port(host: string): string {
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', end);
  return colon < 0 ? '' : host.slice(colon + 1);
}

/** the query as Go's url.ParseQuery reads it: repeated keys keep every value, in order */
function query(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of raw.split(/[&]/)) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const decode = (s: string) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; } };
    const k = decode(eq < 0 ? part : part.slice(0, eq));
    const v = decode(eq < 0 ? '' : part.slice(eq + 1));
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

export const urlLibrary: CelFunc[] = [
  celFunc('url', [STRING], URL_TYPE, (s: string) => {
    const r = parseRequestUri(s);
    if (r instanceof Error) throw new Error(`URL parse error during conversion from string: ${r.message}`);
    return make(descs.url, { raw: s });
  }),
  celFunc('isURL', [STRING], BOOL, (s: string) => !(parseRequestUri(s) instanceof Error)),
  celMethod('getScheme', URL_TYPE, [], STRING, function () { return parsed(this).scheme; }),
  celMethod('getHost', URL_TYPE, [], STRING, function () { return parsed(this).host; }),
  celMethod('getHostname', URL_TYPE, [], STRING, function () { return hostname(parsed(this).host); }),
  celMethod('getPort', URL_TYPE, [], STRING, function () { return port(parsed(this).host); }),
  celMethod('getEscapedPath', URL_TYPE, [], STRING, function () { return parsed(this).path; }),
  celMethod('getQuery', URL_TYPE, [], mapType(STRING, listType(STRING)), function () {
    return query(parsed(this).rawQuery) as never;
  }),
];
