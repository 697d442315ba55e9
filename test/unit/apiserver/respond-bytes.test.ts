// src/apiserver/respond.ts on its own, request in and bytes out: a RequestContext built by hand
// whose response only records what it is told (status, headers, chunks), with no router, no
// registry and no socket. Negotiation (src/codec/negotiate.ts) decides the representation;
// this file checks what reaches the wire for each choice. test/unit/apiserver/respond.test.ts
// covers the same ground through the router and handlers.

import { apiServerFeatureGates, featureGates } from '../../../src/api/feature-gates.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { gunzipSync } from 'node:zlib';
import type { IncomingHttpHeaders } from 'node:http';
import { silentLogger, createLogger } from '../../../src/api/log.ts';
import { notFound, internalError, timeout, StatusError, conflict } from '../../../src/api/status.ts';
import type { KubeList, KubeObject } from '../../../src/api/object.ts';
import type { RequestContext, ResponseLike } from '../../../src/apiserver/context.ts';
import type { RequestInfo } from '../../../src/apiserver/request-info.ts';
import {
  negotiateBeforeWriting, openWatchStream, plainJsonRequested, sendError, sendJson, sendJsonText, sendObject, sendRaw, sendRawJson, sendText, watchBacklogHardBytes,
} from '../../../src/apiserver/respond.ts';
import { createCatalog } from '../../../src/schema/catalog.ts';
import type { ResourceInfo } from '../../../src/schema/types.ts';

// ---- a response that records, and a context around it -------------------------------------------

class Recorder extends EventEmitter implements ResponseLike {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  /** set to simulate a client that does not read (the watch backlog) */
  writableLength = 0;
  headers: Record<string, string | number | string[]> = {};
  writeHeads = 0;
  chunks: Buffer[] = [];
  destroyed = false;
  socket = { destroy: () => { this.destroyed = true; } };
  setHeader(name: string, value: string | number | string[]) { this.headers[name.toLowerCase()] = value; return this; }
  getHeader(name: string) { return this.headers[name.toLowerCase()]; }
  writeHead(code: number, headers: Record<string, string | number | string[]>) {
    assert.equal(this.headersSent, false, 'headers are written once');
    this.writeHeads++;
    this.statusCode = code;
    for (const [k, v] of Object.entries(headers)) this.setHeader(k, v);
    this.headersSent = true;
    return this;
  }
  flushHeaders() { this.headersSent = true; }
  write(chunk: string | Uint8Array) {
    assert.equal(this.writableEnded, false, 'no write after end');
    this.headersSent = true;
    this.chunks.push(Buffer.from(chunk));
    return true;
  }
  end(chunk?: string | Uint8Array) {
    assert.equal(this.writableEnded, false, 'ended once');
    if (chunk !== undefined) this.chunks.push(Buffer.from(chunk));
    this.headersSent = true;
    this.writableEnded = true;
    return this;
  }
  get body(): Buffer { return Buffer.concat(this.chunks); }
  get text(): string { return this.body.toString('utf8'); }
  json(): any { return JSON.parse(this.text); }
}

const catalog = createCatalog();
const configmaps = catalog.lookup('', 'v1', 'configmaps')!;

interface CtxOptions {
  method?: string;
  accept?: string;
  headers?: IncomingHttpHeaders;
  query?: string;
  /** the served resource the path names; null: a path that names none */
  resource?: ResourceInfo | null;
  subresource?: string;
  verb?: string;
  warnings?: string[];
  res?: ResponseLike;
}

function context(o: CtxOptions = {}): { ctx: RequestContext; res: Recorder } {
  const res = (o.res ?? new Recorder()) as Recorder;
  const method = o.method ?? 'GET';
  const headers: IncomingHttpHeaders = { ...(o.accept !== undefined ? { accept: o.accept } : {}), ...o.headers };
  const info = { isResourceRequest: true, path: '/api/v1/namespaces/default/configmaps', group: '', version: 'v1', resource: 'configmaps', verb: o.verb ?? (method === 'GET' ? 'get' : method.toLowerCase()), parts: [], subresource: o.subresource } as RequestInfo;
  const ctx: RequestContext = {
    method, headers, res, info,
    query: new URLSearchParams(o.query ?? ''),
    body: async () => Buffer.alloc(0),
    resource: o.resource === null ? undefined : (o.resource ?? configmaps),
    log: silentLogger,
    signal: new AbortController().signal,
    warnings: o.warnings ?? [],
  };
  return { ctx, res };
}

const cmObject = (name = 'r', data: Record<string, string> = { k: 'v' }): KubeObject => ({
  apiVersion: 'v1', kind: 'ConfigMap',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-01-02T03:04:05Z', labels: { app: 'x' } },
  data,
});

/** the test ConfigMap as Go writes it: kind before apiVersion */
const goOrdered = ({ apiVersion, kind, ...rest }: KubeObject) => JSON.stringify({ kind, apiVersion, ...rest });

const cmList = (...items: KubeObject[]): KubeList => ({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 }, items });

const served406 = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

function throws406(fn: () => unknown, message = served406) {
  assert.throws(fn, (e: unknown) => e instanceof StatusError && e.code === 406 && e.reason === 'NotAcceptable' && e.message === message);
}

// ---- JSON and YAML -------------------------------------------------------------------------------

test('JSON: compact, with its content type, no-cache and the exact content length', () => {
  const { ctx, res } = context();
  sendObject(ctx, 200, cmObject());
  assert.equal(res.statusCode, 200);
  assert.equal(res.writeHeads, 1);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.headers['cache-control'], 'no-cache, private');
  assert.equal(res.headers['content-length'], res.body.length);
  assert.equal(res.headers['content-encoding'], undefined);
  assert.equal(res.headers.warning, undefined, 'no warnings, no header');
  assert.ok(res.writableEnded);
  assert.deepEqual(res.json(), cmObject());
  assert.ok(!/\n|": /.test(res.text.trimEnd()), 'no indentation');
  assert.ok(res.text.startsWith('{"kind":"ConfigMap","apiVersion":"v1","metadata":{'), res.text);
  // any Accept that allows JSON gets the same
  for (const accept of ['*/*', 'application/*', 'application/json', 'application/json;charset=utf-8', 'text/html, application/json;q=0.1', 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json']) {
    const other = context({ accept });
    sendObject(other.ctx, 200, cmObject());
    assert.equal(other.res.headers['content-type'], 'application/json', accept);
    assert.deepEqual(other.res.body, res.body, accept);
  }
});

test('JSON: a single object ends in a newline, as Go\'s json.Encoder writes it', () => {
  const { ctx, res } = context();
  sendObject(ctx, 200, cmObject());
  assert.ok(res.text.endsWith('}\n'), JSON.stringify(res.text.slice(-3)));
  const err = context();
  sendError(err.ctx, notFound({ group: '', resource: 'configmaps' }, 'x'));
  assert.ok(err.res.text.endsWith('}\n'));
});

test('JSON: pretty output indents two spaces as json.MarshalIndent does (no newline), when the query asks or the client is curl, Wget or a browser', () => {
  const goOrder = JSON.parse(goOrdered(cmObject()));
  for (const query of ['pretty=true', 'pretty=1', 'pretty=T']) {
    const { ctx, res } = context({ query });
    sendObject(ctx, 200, cmObject());
    assert.equal(res.text, JSON.stringify(goOrder, null, 2), query);
    assert.equal(res.headers['content-length'], res.body.length);
  }
  for (const userAgent of ['curl/8.5.0', 'Wget/1.21', 'Mozilla/5.0 (X11; Linux x86_64)']) {
    const { ctx, res } = context({ headers: { 'user-agent': userAgent } });
    sendObject(ctx, 200, cmObject());
    assert.equal(res.text, JSON.stringify(goOrder, null, 2), userAgent);
    // the query wins over the user agent, as kube-apiserver decides it
    const off = context({ query: 'pretty=false', headers: { 'user-agent': userAgent } });
    sendObject(off.ctx, 200, cmObject());
    assert.equal(off.res.text, JSON.stringify(goOrder) + '\n', userAgent);
  }
  // an empty or unparsable value is no answer: the user agent decides (kubectl: compact)
  for (const query of ['pretty=', 'pretty=false', 'pretty=yes']) {
    const { ctx, res } = context({ query, headers: { 'user-agent': 'kubectl/v1.33.0' } });
    sendObject(ctx, 200, cmObject());
    assert.equal(res.text, JSON.stringify(goOrder) + '\n', query);
  }
});

test('YAML: sorted keys as Go writes them, its content type and length', () => {
  const { ctx, res } = context({ accept: 'application/yaml' });
  sendObject(ctx, 201, cmObject('y', { b: '2', a: 'true' }));
  assert.equal(res.statusCode, 201);
  assert.equal(res.headers['content-type'], 'application/yaml');
  assert.equal(res.headers['content-length'], res.body.length);
  assert.equal(res.text, [
    'apiVersion: v1',
    'data:',
    '  a: "true"',
    '  b: "2"',
    'kind: ConfigMap',
    'metadata:',
    '  creationTimestamp: "2026-01-02T03:04:05Z"',
    '  labels:',
    '    app: x',
    '  name: "y"',
    '  namespace: default',
    '  resourceVersion: "7"',
    '  uid: uid-y',
    '',
  ].join('\n'));
  // YAML preferred by q-value over JSON
  const q = context({ accept: 'application/json;q=0.5, application/yaml' });
  sendObject(q.ctx, 200, cmObject());
  assert.equal(q.res.headers['content-type'], 'application/yaml');
  // a list in YAML
  const list = context({ accept: 'application/yaml' });
  sendObject(list.ctx, 200, cmList(cmObject('a')));
  assert.match(list.res.text, /^kind: ConfigMapList$/m);
  // items of a typed list have no kind or apiVersion, in YAML too (Kubernetes converts its JSON)
  assert.match(list.res.text, /^items:\n- data:\n/m, 'sequences at the parent key\'s indentation');
  assert.doesNotMatch(list.res.text, /^ {2}apiVersion:/m);
});

// ---- views: Table and metadata only ------------------------------------------------------------

test('Table: a list as rows under the printer\'s columns, in the group and version spelling asked for', () => {
  for (const [g, v] of [['meta.k8s.io', 'v1'], ['meta.k8s.io', 'v1beta1'], ['meta.orch.io', 'v1']] as const) {
    const accept = `application/json;as=Table;v=${v};g=${g}`;
    const { ctx, res } = context({ accept });
    sendObject(ctx, 200, cmList(cmObject('a', { x: '1', y: '2' }), cmObject('b', {})));
    assert.equal(res.headers['content-type'], `application/json;as=Table;v=${v};g=${g}`);
    const t = res.json();
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, `${g}/${v}`);
    assert.deepEqual(t.metadata, { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 }, 'the list\'s metadata');
    assert.deepEqual(t.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Data', 'Age']);
    assert.deepEqual(t.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 2)), [['a', 2], ['b', 0]]);
    // each row carries its object as metadata only, by default
    assert.deepEqual(t.rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: `${g}/${v}`, metadata: cmObject('a').metadata });
  }
  // parameters in any order, and with the Table in YAML
  const yaml = context({ accept: 'application/yaml;g=meta.k8s.io;as=Table;v=v1' });
  sendObject(yaml.ctx, 200, cmList(cmObject('a')));
  assert.equal(yaml.res.headers['content-type'], 'application/yaml;as=Table;v=v1;g=meta.k8s.io');
  assert.match(yaml.res.text, /^kind: Table$/m);
});

test('Table: a single object is a one-row Table; includeObject chooses what a row carries', () => {
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io';
  const one = context({ accept });
  sendObject(one.ctx, 200, cmObject('solo'));
  const t = one.res.json();
  assert.equal(t.rows.length, 1);
  assert.equal(t.rows[0].cells[0], 'solo');
  assert.deepEqual(t.metadata, { resourceVersion: '7' }, 'the object\'s resourceVersion');
  const none = context({ accept, query: 'includeObject=None' });
  sendObject(none.ctx, 200, cmObject('solo'));
  // the row's RawExtension is a struct to Go, written as null when it holds nothing
  assert.equal(none.res.json().rows[0].object, null);
  assert.match(none.res.text, /"rows":\[\{"cells":\[[^\]]*\],"object":null\}\]/);
  const whole = context({ accept, query: 'includeObject=Object' });
  sendObject(whole.ctx, 200, cmObject('solo'));
  assert.deepEqual(whole.res.json().rows[0].object, cmObject('solo'));
});

test('Table: where none can be made (no resource, a subresource) a Table-only Accept is 406; with a fallback, the object', () => {
  const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io';
  for (const o of [{ resource: null }, { subresource: 'status' }] as CtxOptions[]) {
    const only = context({ ...o, accept });
    // without a resource there is no protobuf form to offer either
    throws406(() => sendObject(only.ctx, 200, cmObject()), o.resource === null ? served406.replace(', application/vnd.kubernetes.protobuf', '') : served406);
    assert.equal(only.res.headersSent, false, 'nothing written before the 406');
    const fallback = context({ ...o, accept: `${accept}, application/json` });
    sendObject(fallback.ctx, 200, cmObject());
    assert.equal(fallback.res.headers['content-type'], 'application/json');
    assert.deepEqual(fallback.res.json(), cmObject());
  }
});

test('PartialObjectMetadata for an object, PartialObjectMetadataList for a list; each only where it fits', () => {
  const obj = context({ accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' });
  sendObject(obj.ctx, 200, cmObject());
  assert.equal(obj.res.headers['content-type'], 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io');
  assert.deepEqual(obj.res.json(), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cmObject().metadata });

  const list = context({ accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.orch.io' });
  sendObject(list.ctx, 200, cmList(cmObject('a'), cmObject('b')));
  assert.equal(list.res.headers['content-type'], 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.orch.io');
  assert.deepEqual(list.res.json(), {
    kind: 'PartialObjectMetadataList', apiVersion: 'meta.orch.io/v1',
    metadata: { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 },
    items: [cmObject('a'), cmObject('b')].map(o => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1', metadata: o.metadata })),
  });

  // the single-object view for a list, and the list view for an object, are not served
  throws406(() => sendObject(context({ accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' }).ctx, 200, cmList(cmObject())));
  throws406(() => sendObject(context({ accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' }).ctx, 200, cmObject()));
  // with a q-valued fallback the full object comes
  const fb = context({ accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io, application/json;q=0.9' });
  sendObject(fb.ctx, 200, cmObject());
  assert.deepEqual(fb.res.json(), cmObject());
});

// ---- 406 ----------------------------------------------------------------------------------------

test('406: nothing acceptable is a NotAcceptable listing the served types; the server sends it as JSON', () => {
  for (const accept of ['text/html', 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io', 'application/cbor', 'application/json;as=Table;v=v2;g=meta.k8s.io', 'application/json;q=0']) {
    const { ctx, res } = context({ accept });
    let err: unknown;
    try { sendObject(ctx, 200, cmObject()); } catch (e) { err = e; }
    assert.ok(err instanceof StatusError && err.code === 406, accept);
    assert.equal(err.message, served406);
    assert.equal(res.headersSent, false);
    // what the server does with it: sendError answers in JSON, since nothing asked for can be sent
    sendError(ctx, err);
    assert.equal(res.statusCode, 406);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.deepEqual(res.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: served406, reason: 'NotAcceptable', code: 406 });
  }
});

test('negotiateBeforeWriting: a write whose answer could not be sent is refused first; deletecollection answers a list', () => {
  throws406(() => negotiateBeforeWriting(context({ method: 'POST', verb: 'create', accept: 'text/html' }).ctx));
  negotiateBeforeWriting(context({ method: 'POST', verb: 'create', accept: 'application/yaml' }).ctx);
  negotiateBeforeWriting(context({ method: 'POST', verb: 'create', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }).ctx);
  throws406(() => negotiateBeforeWriting(context({ method: 'POST', verb: 'create', subresource: 'status', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }).ctx));
  const del = (accept: string) => context({ method: 'DELETE', verb: 'deletecollection', accept }).ctx;
  negotiateBeforeWriting(del('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'));
  throws406(() => negotiateBeforeWriting(del('application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io')));
});

test('plainJsonRequested: only compact JSON without a view may be sent as stored bytes', () => {
  const plain = (o: CtxOptions) => plainJsonRequested(context(o).ctx, 'object');
  assert.equal(plain({}), true);
  assert.equal(plain({ accept: 'application/json' }), true);
  assert.equal(plain({ accept: '*/*' }), true);
  assert.equal(plain({ accept: 'application/yaml' }), false);
  assert.equal(plain({ accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }), false);
  assert.equal(plain({ accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' }), false);
  assert.equal(plain({ query: 'pretty=true' }), false);
  assert.equal(plain({ accept: 'text/html' }), false, 'a 406 is for sendObject to raise, not this');
  assert.equal(plainJsonRequested(context({ accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' }).ctx, 'list'), false);
});

// ---- gzip ---------------------------------------------------------------------------------------

const threshold = 128 * 1024;
/** a JSON text of exactly n bytes */
const jsonOfLength = (n: number) => { const head = '{"x":"'; const tail = '"}'; return head + 'a'.repeat(n - head.length - tail.length) + tail; };

test('gzip: a GET whose body reaches 128 KiB is compressed for a client that accepts gzip, never below', () => {
  const big = jsonOfLength(threshold);
  const { ctx, res } = context({ headers: { 'accept-encoding': 'gzip, deflate, br' } });
  sendJsonText(ctx, 200, big);
  assert.equal(res.headers['content-encoding'], 'gzip');
  assert.equal(res.headers['content-length'], res.body.length, 'the compressed length');
  assert.ok(res.body.length < threshold / 10);
  assert.equal(gunzipSync(res.body).toString(), big);
  assert.equal(res.headers['content-type'], 'application/json');

  // the APIResponseCompression gate turned off: never compressed
  const gateOff = context({ headers: { 'accept-encoding': 'gzip' } });
  gateOff.ctx.features = featureGates({ APIResponseCompression: false }, apiServerFeatureGates);
  sendJsonText(gateOff.ctx, 200, big);
  assert.equal(gateOff.res.headers['content-encoding'], undefined);

  const below = context({ headers: { 'accept-encoding': 'gzip' } });
  sendJsonText(below.ctx, 200, jsonOfLength(threshold - 1));
  assert.equal(below.res.headers['content-encoding'], undefined);
  assert.equal(below.res.body.length, threshold - 1);

  for (const headers of [{}, { 'accept-encoding': 'deflate, br' }, { 'accept-encoding': 'identity' }] as IncomingHttpHeaders[]) {
    const plain = context({ headers });
    sendJsonText(plain.ctx, 200, big);
    assert.equal(plain.res.headers['content-encoding'], undefined, JSON.stringify(headers));
    assert.equal(plain.res.text, big);
  }
  // only reads (GET) are compressed
  const post = context({ method: 'POST', headers: { 'accept-encoding': 'gzip' } });
  sendJsonText(post.ctx, 201, big);
  assert.equal(post.res.headers['content-encoding'], undefined);
  // objects and lists take the same path
  const obj = context({ headers: { 'accept-encoding': 'gzip' } });
  sendObject(obj.ctx, 200, cmObject('big', { blob: 'z'.repeat(threshold) }));
  assert.equal(obj.res.headers['content-encoding'], 'gzip');
  assert.equal(JSON.parse(gunzipSync(obj.res.body).toString()).data.blob.length, threshold);
});

test('gzip: a client that refuses gzip with q=0 gets it uncompressed', () => {
  const { ctx, res } = context({ headers: { 'accept-encoding': 'gzip;q=0, identity' } });
  sendJsonText(ctx, 200, jsonOfLength(threshold));
  assert.equal(res.headers['content-encoding'], undefined);
});

// ---- HEAD, warnings, headers ---------------------------------------------------------------------

test('HEAD: the headers a GET would have, the length of its body, and no body', () => {
  const get = context();
  sendObject(get.ctx, 200, cmObject());
  const head = context({ method: 'HEAD' });
  sendObject(head.ctx, 200, cmObject());
  assert.equal(head.res.statusCode, 200);
  assert.equal(head.res.body.length, 0);
  assert.ok(head.res.writableEnded);
  assert.deepEqual(head.res.headers, get.res.headers);
  assert.equal(head.res.headers['content-length'], get.res.body.length);
  const missing = context({ method: 'HEAD' });
  sendError(missing.ctx, notFound({ group: '', resource: 'configmaps' }, 'x'));
  assert.equal(missing.res.statusCode, 404);
  assert.equal(missing.res.body.length, 0);
});

test('warnings: each in a Warning header as 299 - "<text>", quoted as Go quotes it', () => {
  const { ctx, res } = context({ warnings: ['unknown field "spec.x"', 'plain'] });
  sendObject(ctx, 201, cmObject());
  assert.deepEqual(res.headers.warning, ['299 - "unknown field \\"spec.x\\""', '299 - "plain"']);
  const err = context({ warnings: ['w'] });
  sendError(err.ctx, notFound({ group: '', resource: 'configmaps' }, 'x'));
  assert.deepEqual(err.res.headers.warning, ['299 - "w"'], 'errors carry them too');
});

test('a Cache-Control the handler set is kept', () => {
  const res = new Recorder();
  res.setHeader('Cache-Control', 'public, max-age=3600');
  const { ctx } = context({ res });
  sendJson(ctx, 200, { a: 1 });
  assert.equal(res.headers['cache-control'], 'public, max-age=3600');
});

test('sendJson, sendText and sendRaw: their content types, pretty JSON, raw headers', () => {
  const j = context({ query: 'pretty=1' });
  sendJson(j.ctx, 200, { b: [1] }, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  assert.equal(j.res.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  assert.equal(j.res.text, '{\n  "b": [\n    1\n  ]\n}');
  const t = context();
  sendText(t.ctx, 200, 'ok');
  assert.deepEqual([t.res.headers['content-type'], t.res.text, t.res.headers['content-length']], ['text/plain; charset=utf-8', 'ok', 2]);
  const r = context();
  sendRaw(r.ctx, 200, { 'Content-Type': 'application/octet-stream', ETag: '"abc"' }, Buffer.from([0, 1, 2]));
  assert.equal(r.res.headers['content-type'], 'application/octet-stream');
  assert.equal(r.res.headers.etag, '"abc"');
  assert.deepEqual([...r.res.body], [0, 1, 2]);
});

// ---- errors ---------------------------------------------------------------------------------------

test('errors: the Status as JSON with its code as the HTTP status', () => {
  const err = conflict({ group: 'apps', resource: 'deployments' }, 'd');
  const { ctx, res } = context();
  sendError(ctx, err);
  assert.equal(res.statusCode, 409);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.headers['content-length'], res.body.length);
  assert.deepEqual(res.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'Operation cannot be fulfilled on deployments.apps "d": the object has been modified; please apply your changes to the latest version and try again',
    reason: 'Conflict', details: { name: 'd', group: 'apps', kind: 'deployments' }, code: 409,
  });
  const internal = context();
  sendError(internal.ctx, internalError(new Error('boom')));
  assert.equal(internal.res.statusCode, 500);
  assert.deepEqual(internal.res.json().details, { causes: [{ message: 'boom' }] });
});

test('errors: in YAML when YAML was asked for; never as a Table or a metadata view', () => {
  const err = notFound({ group: '', resource: 'configmaps' }, 'gone');
  const yaml = context({ accept: 'application/yaml' });
  sendError(yaml.ctx, err);
  assert.equal(yaml.res.headers['content-type'], 'application/yaml');
  assert.equal(yaml.res.text, [
    'apiVersion: v1',
    'code: 404',
    'details:',
    '  kind: configmaps',
    '  name: gone',
    'kind: Status',
    'message: configmaps "gone" not found',
    'metadata: {}',
    'reason: NotFound',
    'status: Failure',
    '',
  ].join('\n'));
  for (const accept of ['application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', 'application/yaml;as=Table;v=v1;g=meta.k8s.io']) {
    const view = context({ accept });
    sendError(view.ctx, err);
    assert.equal(view.res.headers['content-type'], 'application/json', accept);
    assert.equal(view.res.json().kind, 'Status');
  }
});

test('errors: the headers a Status carries (Retry-After) go out with it', () => {
  const { ctx, res } = context();
  sendError(ctx, timeout('Too large resource version: 10, current: 5', 1));
  assert.equal(res.statusCode, 504);
  assert.equal(res.headers['retry-after'], '1');
  assert.deepEqual(res.json().details, { retryAfterSeconds: 1 });
});

test('errors: once the headers went out, the response is only ended', () => {
  const { ctx, res } = context();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"partial":');
  sendError(ctx, notFound({ group: '', resource: 'configmaps' }, 'x'));
  assert.equal(res.statusCode, 200);
  assert.equal(res.text, '{"partial":');
  assert.ok(res.writableEnded);
  sendError(ctx, notFound({ group: '', resource: 'configmaps' }, 'x'));
  assert.ok(res.writableEnded, 'and a second error does not end it twice (the recorder asserts)');
});

test('a Status as the answer of a write goes out as JSON even to a Table-only or metadata-only Accept', () => {
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'x', kind: 'configmaps' } } as unknown as KubeObject;
  for (const accept of ['application/json;as=Table;v=v1;g=meta.k8s.io', 'text/html']) {
    const { ctx, res } = context({ method: 'DELETE', verb: 'delete', accept });
    sendObject(ctx, 200, status);
    assert.equal(res.headers['content-type'], 'application/json', accept);
    assert.deepEqual(res.json(), status);
  }
  const yaml = context({ method: 'DELETE', verb: 'delete', accept: 'application/yaml' });
  sendObject(yaml.ctx, 200, status);
  assert.equal(yaml.res.headers['content-type'], 'application/yaml');
  assert.match(yaml.res.text, /^status: Success$/m);
});

// ---- HTTP/2 --------------------------------------------------------------------------------------

test('HTTP/2: a body goes out on the stream itself, in one respond and one end; HEAD and preset headers take the compatibility path', () => {
  const calls: unknown[] = [];
  const h2 = () => {
    const res = new Recorder() as Recorder & { stream: unknown };
    res.stream = { headersSent: false, respond: (h: Record<string, unknown>) => calls.push(['respond', h]), end: (b?: Buffer) => calls.push(['end', b?.toString()]) };
    return res;
  };
  const { ctx, res } = context({ res: h2(), warnings: ['careful'] });
  sendObject(ctx, 200, cmObject());
  const body = goOrdered(cmObject()) + '\n';
  assert.deepEqual(calls, [
    ['respond', { ':status': 200, 'content-type': 'application/json', 'cache-control': 'no-cache, private', warning: ['299 - "careful"'], 'content-length': Buffer.byteLength(body) }],
    ['end', body],
  ]);
  assert.equal(res.writeHeads, 0, 'the compatibility layer is not used');
  calls.length = 0;
  const head = context({ method: 'HEAD', res: h2() });
  sendObject(head.ctx, 200, cmObject());
  assert.deepEqual(calls, []);
  assert.equal(head.res.writeHeads, 1);
  const preset = h2();
  preset.setHeader('ETag', '"1"');
  sendObject(context({ res: preset }).ctx, 200, cmObject());
  assert.deepEqual(calls, []);
  assert.equal(preset.writeHeads, 1);
});

// ---- watch streams -------------------------------------------------------------------------------

const turn = () => new Promise<void>(resolve => setImmediate(resolve));

test('watch: one JSON event per line; events sent in one turn leave in one write; close ends the stream', async () => {
  const { ctx, res } = context({ verb: 'watch' });
  const w = openWatchStream(ctx);
  assert.equal(w.started, false);
  w.start();
  assert.equal(w.started, true);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.headers['cache-control'], 'no-cache, private');
  assert.equal(res.chunks.length, 0, 'headers only');
  assert.equal(w.send('ADDED', cmObject('a')), true);
  assert.equal(w.send('MODIFIED', cmObject('b')), true);
  await turn();
  assert.equal(res.chunks.length, 1, 'one write for the batch');
  assert.equal(res.text, `{"type":"ADDED","object":${goOrdered(cmObject('a'))}}\n{"type":"MODIFIED","object":${goOrdered(cmObject('b'))}}\n`);
  w.send('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '12' } });
  w.close();
  assert.equal(res.chunks.length, 2, 'close flushes what is pending');
  assert.ok(res.writableEnded);
  assert.equal(w.send('DELETED', cmObject('a')), false, 'nothing after the end');
  assert.deepEqual(res.text.trimEnd().split('\n').map(l => JSON.parse(l).type), ['ADDED', 'MODIFIED', 'BOOKMARK']);
});

test('watch: Table events carry the column definitions on the first event only; YAML cannot be streamed', async () => {
  const { ctx, res } = context({ verb: 'watch', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  const w = openWatchStream(ctx);
  w.send('ADDED', cmObject('a'));
  w.send('ADDED', cmObject('b'));
  w.send('ERROR', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired' });
  w.close();
  const events = res.text.trimEnd().split('\n').map(l => JSON.parse(l));
  assert.deepEqual(events.map(e => [e.type, e.object.kind]), [['ADDED', 'Table'], ['ADDED', 'Table'], ['ERROR', 'Status']]);
  assert.deepEqual(events[0].object.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Data', 'Age']);
  assert.deepEqual(events[1].object.columnDefinitions, []);
  assert.equal(events[1].object.rows[0].cells[0], 'b');
  throws406(() => openWatchStream(context({ verb: 'watch', accept: 'application/yaml' }).ctx),
    'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch');
});

test('watch: a client past the hard backlog limit is cut off at once, its connection reset', async () => {
  const res = new Recorder();
  const { ctx } = context({ verb: 'watch', res });
  ctx.log = createLogger('error', () => {});
  const w = openWatchStream(ctx);
  w.send('ADDED', cmObject('a'));
  await turn();
  assert.equal(res.destroyed, false, 'a small backlog is fine');
  res.writableLength = watchBacklogHardBytes + 1;
  w.send('ADDED', cmObject('b'));
  await turn();
  assert.equal(res.destroyed, true);
  assert.equal(w.send('ADDED', cmObject('c')), false, 'the stream says it is over');
  await turn();
  assert.equal(res.chunks.length, 2, 'nothing more is written');
});

// ---- indentation beyond the query -------------------------------------------------------------

test('pretty: a Status error is indented for curl too; pretty=1 in the Accept media type indents, pretty=false does not undo it', () => {
  const err = notFound({ group: '', resource: 'configmaps' }, 'x');
  const curl = context({ headers: { 'user-agent': 'curl/8.5.0' } });
  sendError(curl.ctx, err);
  assert.equal(curl.res.text, '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "configmaps \\"x\\" not found",\n  "reason": "NotFound",\n  "details": {\n    "name": "x",\n    "kind": "configmaps"\n  },\n  "code": 404\n}');
  const kubectl = context({ headers: { 'user-agent': 'kubectl/v1.36.0' } });
  sendError(kubectl.ctx, err);
  assert.ok(kubectl.res.text.endsWith('"code":404}\n'));
  const media = context({ accept: 'application/json;pretty=1', query: 'pretty=false' });
  sendObject(media.ctx, 200, cmObject());
  assert.equal(media.res.text, JSON.stringify(JSON.parse(goOrdered(cmObject())), null, 2));
  // and such a client is not handed stored bytes as they are
  assert.equal(plainJsonRequested(context({ accept: 'application/json;pretty=1' }).ctx, 'object'), false);
  assert.equal(plainJsonRequested(context({ accept: 'application/json' }).ctx, 'object'), true);
});

test('/version is written as kube-apiserver writes it: json.MarshalIndent always, no trailing newline', () => {
  const { ctx, res } = context({ resource: null, headers: { 'user-agent': 'kubectl/v1.36.0' } });
  sendRawJson(ctx, 200, { major: '1', minor: '36', gitVersion: 'v1.36.0' });
  assert.equal(res.headers['content-type'], 'application/json');
  assert.equal(res.text, '{\n  "major": "1",\n  "minor": "36",\n  "gitVersion": "v1.36.0"\n}');
});

test('watch: a bookmark is an empty object of the kind as Go writes one (a Pod\'s spec.containers null, its status {})', async () => {
  const { ctx, res } = context({ verb: 'watch' });
  const w = openWatchStream(ctx);
  w.send('BOOKMARK', { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '12' } });
  w.send('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '13', annotations: { 'k8s.io/initial-events-end': 'true' } } });
  w.close();
  assert.equal(res.text, '{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12"},"spec":{"containers":null},"status":{}}}\n'
    + '{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"13","annotations":{"k8s.io/initial-events-end":"true"}}}}\n');
});
