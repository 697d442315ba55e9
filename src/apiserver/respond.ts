// Writing responses: negotiate the representation (JSON/YAML, Table, metadata-only), encode,
// compress large bodies, and frame watch streams. Errors go out as Status objects.

import { gzipSync } from 'node:zlib';
import type { StatusError } from '../api/status.ts';
import { apiVersionOf, isObject, type KubeList, type KubeObject } from '../api/object.ts';
import type { RequestContext } from './context.ts';
import { isProtobuf, negotiateResponse, responseContentType, wantsPretty, type Negotiated, type Target } from '../codec/negotiate.ts';
import { supportsProtobuf } from '../codec/protobuf/envelope.ts';
import { encodeProtobufWatchEvent } from '../codec/protobuf/watch.ts';
import { encodeCbor } from '../codec/cbor.ts';
import { goJson, goJsonIndented, goString } from '../codec/go-json.ts';
import { encodeBody } from '../codec/encode.ts';
import { toPartialObjectMetadata, toPartialObjectMetadataList } from '../codec/partial-metadata.ts';
import { toTable } from '../codec/table.ts';
import { printerFor } from '../schema/printers/index.ts';
import { printerOfCustomResource } from '../codec/custom-resource-table.ts';
import { warningHeaders } from './warning-header.ts';

// responses at least this large are gzipped for clients that accept it
const compressThreshold = 128 * 1024;

function isList(obj: unknown): obj is KubeList {
  return isObject(obj) && Array.isArray(obj.items) && typeof obj.kind === 'string' && obj.kind.endsWith('List');
}

/** JSON indented: asked for in the media type (`pretty=1`), the query, or by the user agent */
function pretty(ctx: RequestContext, n?: Negotiated): boolean {
  return n?.pretty === true || wantsPretty(ctx.query.get('pretty'), ctx.headers['user-agent']);
}

function commonHeaders(ctx: RequestContext): void {
  if (!ctx.res.getHeader('Cache-Control')) ctx.res.setHeader('Cache-Control', 'no-cache, private');
  const warnings = warningHeaders(ctx.warnings);
  if (warnings.length) ctx.res.setHeader('Warning', warnings);
}

/**
 * whether Accept-Encoding offers gzip as kube-apiserver reads it: one comma-separated token that
 * is exactly `gzip` (so `gzip;q=0`, which refuses it, and `x-gzip` do not)
 */
function acceptsGzip(header: string): boolean {
  return header.split(',').some(token => token.trim() === 'gzip');
}

function write(ctx: RequestContext, code: number, contentType: string, body: string | Uint8Array): void {
  if (ctx.res.headersSent) { ctx.res.end(); return; }
  let data = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // one writeHead with every header: cheaper than a setHeader each on the hot path
  const headers: Record<string, string | number | string[]> = { 'content-type': contentType };
  if (!ctx.res.getHeader('Cache-Control')) headers['cache-control'] = 'no-cache, private';
  const warnings = warningHeaders(ctx.warnings);
  if (warnings.length) headers.warning = warnings;
  if (ctx.auditID) headers['audit-id'] = ctx.auditID;
  if (ctx.flowUIDs) {
    headers['x-kubernetes-pf-flowschema-uid'] = ctx.flowUIDs.flowSchema;
    headers['x-kubernetes-pf-prioritylevel-uid'] = ctx.flowUIDs.priorityLevel;
  }
  ctx.audit?.response(code, contentType, data);
  const acceptEncoding = ctx.headers['accept-encoding'];
  if (acceptEncoding && data.length >= compressThreshold && ctx.method === 'GET' && (ctx.features?.enabled('APIResponseCompression') ?? true) && acceptsGzip(String(acceptEncoding))) {
    data = gzipSync(data, { level: 1 });
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = data.length;
  const payload = ctx.method === 'HEAD' ? undefined : data;
  // HTTP/2: answer on the stream itself, past the HTTP/1-shaped compatibility layer
  // (not for HEAD: the compatibility layer never hears that such a stream ended, so the request
  // would stay in flight and a shutdown would wait for it)
  const stream = (ctx.res as unknown as { stream?: { respond(h: Record<string, unknown>): void; end(b?: Buffer): void; headersSent: boolean } }).stream;
  if (stream && payload && !stream.headersSent && !ctx.res.getHeader('Retry-After') && !ctx.res.getHeader('ETag') && !ctx.res.getHeader('Cache-Control')) {
    ctx.res.statusCode = code; // the compatibility layer still tells /metrics the code
    stream.respond({ ':status': code, ...headers });
    stream.end(payload);
    return;
  }
  ctx.res.writeHead(code, headers);
  ctx.res.end(payload);
}

/** whether the resource's objects have a protobuf form (built-in kinds do, custom resources not) */
function resourceHasProtobuf(ctx: RequestContext): boolean {
  const r = ctx.resource;
  if (!r) return false;
  let has = protobufByResource.get(r);
  if (has === undefined) protobufByResource.set(r, has = supportsProtobuf(apiVersionOf(r.group, r.version), r.kind));
  return has;
}

function cbor(ctx: RequestContext): boolean {
  return ctx.features?.enabled('CBORServingAndStorage') ?? false;
}

// asked on every request: worked out once per served resource
const protobufByResource = new WeakMap<object, boolean>();

/** the representation of an answer about the request's resource (its objects, lists, views) */
function negotiateForResource(ctx: RequestContext, target: Target): Negotiated {
  return negotiateResponse(ctx.headers.accept, target, { tableSupported: !!ctx.resource && !ctx.info.subresource, ...protobufOptions(ctx), cborSupported: cbor(ctx) });
}

/**
 * Protobuf for the request's resource: custom resources have no protobuf form, yet their
 * endpoints keep a protobuf serializer for what has one (metadata-only views, Status errors)
 */
function protobufOptions(ctx: RequestContext): { protobufSupported: boolean; protobufForMetadata: boolean } {
  return { protobufSupported: resourceHasProtobuf(ctx), protobufForMetadata: !!ctx.resource?.custom };
}

/** the client takes plain compact JSON: the handlers may then send stored JSON as it is */
export function plainJsonRequested(ctx: RequestContext, target: 'object' | 'list'): boolean {
  if (pretty(ctx)) return false;
  try {
    const n = negotiateForResource(ctx, target);
    return n.mediaType === 'application/json' && !n.view && !n.pretty;
  } catch {
    return false;
  }
}

export function sendJsonText(ctx: RequestContext, code: number, text: string | Uint8Array): void {
  write(ctx, code, 'application/json', text);
}

/** the object (or list, or Status) in the representation the client asked for */
export function sendObject(ctx: RequestContext, code: number, obj: KubeObject | KubeList): void {
  const target = isList(obj) ? 'list' : 'object';
  if ((obj as { kind?: string }).kind === 'Status') {
    // a write already done says so in JSON when the client takes nothing a Status can be
    let n: Negotiated = { mediaType: 'application/json' };
    try { n = negotiateResponse(ctx.headers.accept, target, { tableSupported: false, protobufSupported: true, cborSupported: cbor(ctx) }); } catch { /* JSON */ }
    return write(ctx, code, responseContentType(n), encodeBody(obj, n.mediaType, { pretty: pretty(ctx, n) }));
  }
  let n = negotiateForResource(ctx, target);
  // a subresource's kind may have no protobuf form although its resource's has
  if (isProtobuf(n.mediaType) && !n.view && !supportsProtobuf(String(obj.apiVersion), String(obj.kind))) {
    n = negotiateResponse(ctx.headers.accept, target, { tableSupported: false, cborSupported: cbor(ctx) });
  }
  write(ctx, code, responseContentType(n), encodeBody(present(ctx, n, obj), n.mediaType, { pretty: pretty(ctx, n) }));
}

/**
 * A write is refused (406) before it is done when its reply could not be sent in any
 * representation the client accepts, as Kubernetes negotiates the output before the work.
 */
export function negotiateBeforeWriting(ctx: RequestContext): void {
  negotiateForResource(ctx, ctx.info.verb === 'deletecollection' ? 'list' : 'object');
}

function present(ctx: RequestContext, n: Negotiated, obj: KubeObject | KubeList): unknown {
  if (!n.view || (obj as { kind?: string }).kind === 'Status') return obj;
  const apiVersion = `${n.view.group}/${n.view.version}`;
  if (n.view.as === 'PartialObjectMetadata') return toPartialObjectMetadata(obj as KubeObject, apiVersion);
  if (n.view.as === 'PartialObjectMetadataList') return toPartialObjectMetadataList(obj as KubeList, apiVersion);
  const info = ctx.resource!;
  const items = isList(obj) ? obj.items : [obj as KubeObject];
  return toTable(info.custom ? printerOfCustomResource(info.custom) : printerFor(info.group, info.resource), items, {
    now: new Date(),
    includeObject: (ctx.query.get('includeObject') ?? 'Metadata') as 'None' | 'Metadata' | 'Object',
    listMeta: isList(obj) ? obj.metadata : undefined,
    group: n.view.group,
    version: n.view.version,
  });
}

export function sendError(ctx: RequestContext, err: StatusError): void {
  ctx.audit?.status(err);
  if (ctx.res.headersSent) { if (!ctx.res.writableEnded) ctx.res.end(); return; }
  for (const [k, v] of Object.entries(err.headers ?? {})) ctx.res.setHeader(k, v);
  let n: Negotiated | undefined;
  // a Status has a protobuf form wherever the resource's objects have one
  try { n = negotiateResponse(ctx.headers.accept, 'object', { tableSupported: false, protobufSupported: resourceHasProtobuf(ctx) || !!ctx.resource?.custom, cborSupported: cbor(ctx) }); } catch { n = undefined; }
  const mediaType = n?.mediaType ?? 'application/json';
  // errors are indented for the same clients as objects (curl shows a Status indented)
  write(ctx, err.code, mediaType, encodeBody(err.status, mediaType, { pretty: pretty(ctx, n) }));
}

export function sendJson(ctx: RequestContext, code: number, body: unknown, contentType = 'application/json'): void {
  write(ctx, code, contentType, encodeBody(body, 'application/json', { pretty: pretty(ctx) }));
}

/**
 * a value that is not an API object (the /version answer), as kube-apiserver writes those:
 * always indented by json.MarshalIndent, with no trailing newline
 */
export function sendRawJson(ctx: RequestContext, code: number, body: unknown): void {
  write(ctx, code, 'application/json', goJsonIndented(body));
}

export function sendText(ctx: RequestContext, code: number, body: string): void {
  write(ctx, code, 'text/plain; charset=utf-8', body);
}

export function sendRaw(ctx: RequestContext, code: number, headers: Record<string, string>, body: string | Buffer): void {
  if (ctx.res.headersSent) return;
  ctx.res.statusCode = code;
  for (const [k, v] of Object.entries(headers)) ctx.res.setHeader(k, v);
  write(ctx, code, headers['Content-Type'] ?? headers['content-type'] ?? 'application/json', body);
}

// A watcher whose unsent backlog stays above the soft limit for the grace period, or ever
// passes the hard limit, is cut off (its client watches again) so that it cannot hold memory
// without bound; a burst a healthy client drains is not cut. Writers never wait for watchers.
export const watchBacklogSoftBytes = 16 * 1024 * 1024;
export const watchBacklogHardBytes = 256 * 1024 * 1024;
export const watchBacklogGraceMs = 5000;

export interface WatchStream {
  /** false when the client has fallen too far behind and the stream was ended */
  send(type: string, object: unknown): boolean;
  /** send the response headers now (clients wait for them before reading events) */
  start(): void;
  /** true once the response headers went out */
  readonly started: boolean;
  close(): void;
}

// the same event goes to many watchers as the same object: serialize and encode it once
const lines = new WeakMap<object, Map<string, Buffer>>();

function eventLine(type: string, obj: object): Buffer {
  let byType = lines.get(obj);
  if (!byType) lines.set(obj, byType = new Map());
  let line = byType.get(type);
  if (line === undefined) byType.set(type, line = Buffer.from(watchEventJson(type, obj)));
  return line;
}

/** one line of a JSON watch stream: a WatchEvent as Go's encoder writes it */
function watchEventJson(type: string, obj: unknown): string {
  return `{"type":${goString(type)},"object":${goJson(obj)}}\n`;
}

/** one frame of a protobuf watch stream, encoded once for all the watchers that get the event */
const frames = new WeakMap<object, Map<string, Buffer>>();

function protobufEvent(type: string, obj: Record<string, unknown>): Buffer {
  let byType = frames.get(obj);
  if (!byType) frames.set(obj, byType = new Map());
  let frame = byType.get(type);
  if (frame === undefined) {
    const bytes = encodeProtobufWatchEvent(type, obj);
    byType.set(type, frame = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return frame;
}

// The watchers of one dispatch are sent the same lines in the same order: join them once.
let lastJoin: { parts: Buffer[]; joined: Buffer } | undefined;

function joinLines(parts: Buffer[]): Buffer {
  const last = lastJoin;
  if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.joined;
  const joined = Buffer.concat(parts);
  lastJoin = { parts, joined };
  return joined;
}

/** a chunked stream of watch events, one JSON document per line */
export function openWatchStream(ctx: RequestContext): WatchStream {
  const n = negotiateResponse(ctx.headers.accept, 'watch', { tableSupported: !!ctx.resource, ...protobufOptions(ctx), cborSupported: cbor(ctx) });
  const protobuf = isProtobuf(n.mediaType);
  const cborSeq = n.mediaType === 'application/cbor';
  let started = false;
  let first = true;
  let behindSince = 0;
  let cutOff = false;
  let pending: Buffer[] = [];
  const res = ctx.res as unknown as { writableLength?: number; stream?: { write(b: Buffer): boolean; writableLength?: number; close(): void }; socket?: { destroy(): void } };
  const out = res.stream ?? ctx.res;
  // the backlog is looked at once per write, not per event
  const checkBacklog = () => {
    const backlog = res.stream?.writableLength ?? res.writableLength ?? 0;
    if (backlog <= watchBacklogSoftBytes) { behindSince = 0; return; }
    if (behindSince === 0) behindSince = Date.now();
    if (backlog <= watchBacklogHardBytes && Date.now() - behindSince <= watchBacklogGraceMs) return;
    ctx.log.warn('closing a watch that does not keep up', { path: ctx.info.path, user: ctx.user?.name, userAgent: ctx.headers['user-agent'], backlogBytes: backlog });
    cutOff = true;
    // reset rather than end: what is still buffered for it is dropped and its memory freed
    if (res.stream) res.stream.close(); else res.socket?.destroy();
  };
  const flush = () => {
    if (pending.length === 0 || ctx.res.writableEnded || cutOff) { pending = []; return; }
    const chunk = pending.length === 1 ? pending[0]! : joinLines(pending);
    pending = [];
    // HTTP/2: straight to the stream, past the compatibility layer's per-write bookkeeping
    out.write(chunk);
    checkBacklog();
  };
  const start = () => {
    if (started) return;
    started = true;
    ctx.res.statusCode = 200;
    commonHeaders(ctx);
    ctx.res.setHeader('Content-Type', protobuf ? `${responseContentType(n)};stream=watch` : cborSeq ? responseContentType(n, 'application/cbor-seq') : responseContentType(n));
    ctx.res.flushHeaders?.();
  };
  return {
    send(type, object) {
      start();
      if (cutOff || ctx.res.writableEnded) return false;
      let obj = object;
      // a bookmark is metadata too: a metadata-only watch gets it as PartialObjectMetadata, as
      // Kubernetes transforms every event (a custom resource's has no protobuf form of its own)
      if (n.view && type !== 'ERROR' && (type !== 'BOOKMARK' || n.view.as !== 'Table')) {
        obj = present(ctx, n, object as KubeObject);
        // column definitions travel with the first event only, as Kubernetes sends them
        if (!first && isObject(obj) && obj.kind === 'Table') obj = { ...obj, columnDefinitions: [] };
      }
      first = false;
      if (protobuf) pending.push(protobufEvent(type, obj as Record<string, unknown>));
      else if (cborSeq) pending.push(Buffer.from(encodeCbor({ type, object: obj })));
      else pending.push(obj === object ? eventLine(type, obj as object) : Buffer.from(watchEventJson(type, obj)));
      // events sent in one turn (a batch from the watch cache) leave in one write
      if (pending.length === 1) queueMicrotask(flush);
      return true;
    },
    start,
    get started() { return started; },
    close() {
      start();
      flush();
      if (!ctx.res.writableEnded) ctx.res.end();
    },
  };
}
