// A property-based request fuzzer for `orch server`: random and mutated requests of every verb on
// a few kinds of resource, sent over HTTP/2 and HTTP/1.1 and, now and then, as raw bytes on a TLS
// socket. Every reply must come within a second, be a 2xx or a 4xx Status (never a 5xx), carry no
// JavaScript error text, and a rejected request must write nothing. Shared by the test suite
// (a fixed seed) and `npm run fuzz` (any seed, any number of runs).

import fc from 'fast-check';
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import { readFileSync } from 'node:fs';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { encodeProtobufObject } from '../../src/codec/protobuf/envelope.ts';

/** the server is started with these so that nothing but the fuzzer writes (the revision check relies on it) */
export const quietServerArgs = ['--controllers=-namespace', '--disable-scheduler'];
export const fuzzNamespace = 'fuzz';

export interface FuzzTarget {
  url: string;
  kubeconfig: string;
  /** the server's pid, for its resident memory */
  pid: number;
}

export interface FuzzRequest {
  transport: 'h2' | 'h1';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzReply { status: number; headers: Record<string, string | string[] | undefined>; body: string; ms: number }

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** resident memory the server may reach (bytes) */
  maxRssBytes?: number;
  progress?: (done: number, rssBytes: number) => void;
}

export interface FuzzResult {
  runs: number;
  ms: number;
  maxRssBytes: number;
  /** how many replies had each status code (to see that valid requests get through too) */
  statuses: Record<number, number>;
}

const replyLimitMs = 1000;
const jsErrorText = /TypeError|SyntaxError|RangeError|ReferenceError|Cannot read propert|Maximum call stack|is not a function|is not iterable|\(undefined\)|\[object Object\]/;

// ---------------------------------------------------------------------------------------------
// what is sent

interface Kind { collection: string; apiVersion: string; kind: string; object: (name: string) => Record<string, unknown>; subresources: string[] }

const podSpec = { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '1'], ports: [{ containerPort: 80 }], resources: { requests: { cpu: '10m' } } }] };
const ns = `/namespaces/${fuzzNamespace}`;
const kinds: Kind[] = [
  { collection: `/api/v1${ns}/configmaps`, apiVersion: 'v1', kind: 'ConfigMap', object: name => ({ metadata: { name, labels: { app: 'x' } }, data: { a: '1', 'b.txt': 'two' } }), subresources: [] },
  { collection: `/api/v1${ns}/secrets`, apiVersion: 'v1', kind: 'Secret', object: name => ({ metadata: { name }, type: 'Opaque', stringData: { k: 'v' }, data: { d: 'aGVsbG8=' } }), subresources: [] },
  { collection: `/api/v1${ns}/pods`, apiVersion: 'v1', kind: 'Pod', object: name => ({ metadata: { name, annotations: { n: 'v' } }, spec: podSpec }), subresources: ['status', 'binding', 'log'] },
  {
    collection: `/apis/apps/v1${ns}/deployments`, apiVersion: 'apps/v1', kind: 'Deployment',
    object: name => ({ metadata: { name }, spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: podSpec } } }),
    subresources: ['status', 'scale'],
  },
  { collection: '/apis/scheduling.k8s.io/v1/priorityclasses', apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', object: name => ({ metadata: { name: `fz-${name}` }, value: 100, description: 'd' }), subresources: [] },
];

const names = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c') }, { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2E%2E', '%2e', '%FF', 'a%2Fb', '%25', 'A_B', 'x'.repeat(300), '%00', 'caf%C3%A9', '%E0%A4%A', '%ZZ', '-a-') });
const subresourceOf = (k: Kind) => fc.option(fc.constantFrom(...k.subresources, 'bogus', '..', 'status/extra'), { nil: undefined, freq: 3 });

/** values a JSON field might be given instead of the right one */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(2 ** 64), fc.constant(-1),
  fc.string(), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constant('\u0000\u2028<&>'), fc.constant('x'.repeat(70_000)),
  fc.constant([]), fc.constant([null]), fc.constant({}), fc.constant({ '': null }), fc.jsonValue({ maxDepth: 3 }),
  // (deeper values go as text below: building them as values would overflow the fuzzer's own stack)
  fc.integer({ min: 480, max: 520 }).map(d => JSON.parse('['.repeat(d) + ']'.repeat(d)) as unknown),
);

type Json = Record<string, unknown>;

/** set `value` at a path chosen by `picks` inside a copy of `obj` (creating, replacing or deleting) */
function mutate(obj: Json, picks: number[], value: unknown, remove: boolean): Json {
  const root = structuredClone(obj);
  let node: Json = root;
  for (let i = 0; i < picks.length; i++) {
    const keys = Object.keys(node);
    const key = keys.length && picks[i]! % 3 !== 0 ? keys[picks[i]! % keys.length]! : ['metadata', 'spec', 'data', 'status', 'x', 'kind', 'apiVersion', 'name', 'uid', 'containers'][picks[i]! % 10]!;
    const child = node[key];
    if (i === picks.length - 1 || typeof child !== 'object' || child === null || Array.isArray(child)) {
      if (remove) delete node[key];
      else if (Array.isArray(child) && child.length && picks[i]! % 2) child[picks[i]! % child.length] = value;
      else node[key] = value;
      return root;
    }
    node = child as Json;
  }
  return root;
}

const mutatedObject = (k: Kind) => fc.record({
  name: fc.constantFrom('a', 'b', 'c'),
  typed: fc.boolean(),
  mutations: fc.oneof(fc.constant([]), fc.array(fc.record({ picks: fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), value: oddValue, remove: fc.boolean() }), { maxLength: 3 })),
}).map(({ name, typed, mutations }) => {
  let obj: Json = k.object(name);
  if (typed) obj = { apiVersion: k.apiVersion, kind: k.kind, ...obj };
  for (const m of mutations) obj = mutate(obj, m.picks, m.value, m.remove);
  return obj;
});

interface Body { contentType?: string; body: Buffer }
const text = (contentType: string | undefined, s: string): Body => ({ contentType, body: Buffer.from(s) });

const jsonPatchOps = fc.array(fc.record({
  op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
  path: fc.constantFrom('/data/a', '/metadata/labels/x', '/spec/replicas', '/spec/containers/0/image', '/spec/containers/-', '/metadata/uid', '', '/', '/a~2b', '/spec/template/spec/containers/0'),
  from: fc.option(fc.constantFrom('/data/a', '/metadata'), { nil: undefined }),
  value: oddValue,
}), { maxLength: 3 });

const bodyFor = (k: Kind): fc.Arbitrary<Body> => fc.oneof(
  { weight: 5, arbitrary: mutatedObject(k).map(o => text('application/json', JSON.stringify(o))) },
  { weight: 2, arbitrary: mutatedObject(k).map(o => text('application/yaml', toYaml(o))) },
  { weight: 1, arbitrary: mutatedObject(k).map(o => text('application/merge-patch+json', JSON.stringify(o))) },
  { weight: 1, arbitrary: mutatedObject(k).map(o => text('application/strategic-merge-patch+json', JSON.stringify(o))) },
  { weight: 1, arbitrary: mutatedObject(k).map(o => text('application/apply-patch+yaml', JSON.stringify({ apiVersion: k.apiVersion, kind: k.kind, ...o }))) },
  { weight: 1, arbitrary: jsonPatchOps.map(ops => text('application/json-patch+json', JSON.stringify(ops))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(v => text('application/json', JSON.stringify(v))) },
  { weight: 1, arbitrary: fc.tuple(mutatedObject(k), fc.nat(), fc.nat()).map(([o, cut, dup]) => {
    // truncated, or with a key repeated
    const s = JSON.stringify(o);
    return text('application/json', dup % 2 ? s.replace('{', '{"metadata":{"name":"dup"},') : s.slice(0, cut % (s.length + 1)));
  }) },
  { weight: 1, arbitrary: fc.constantFrom(
    'metadata:\n  name: y\ndata:\n  a: !!binary aGVsbG8=\n', 'a: .nan\n', 'a: &x [*x]\n', '---\na: 1\n---\nb: 2\n', 'a: !!set {p, q}\n',
    'metadata: !!omap [{name: o}]\n', 'a: !foo bar\n', `a: ${'['.repeat(3000)}${']'.repeat(3000)}\n`, 'a: [unclosed\n', '\t- bad\n', 'a: 1e400\n', '? [a]\n: b\n',
  ).map(s => text('application/yaml', s)) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 9_990, max: 10_010 }), fc.constantFrom('{"a":', '[')).map(([d, open]) => {
    const close = open === '[' ? ']' : '}';
    return text('application/json', `{"metadata":{"name":"deep"},"x":${open.repeat(d)}${open === '[' ? '' : '1'}${close.repeat(d)}}`);
  }) },
  { weight: 2, arbitrary: fc.tuple(mutatedObject(k), fc.array(fc.nat({ max: 255 }), { maxLength: 8 }), fc.nat()).map(([o, noise, at]) => {
    // a protobuf envelope: a real one with some bytes overwritten, or the magic and noise
    let bytes: Buffer;
    try { bytes = Buffer.from(encodeProtobufObject({ apiVersion: k.apiVersion, kind: k.kind, ...o } as Json)); } catch { bytes = Buffer.from('k8s\0'); }
    for (let i = 0; i < noise.length; i++) if (bytes.length > 4) bytes[4 + (at + i) % (bytes.length - 4)] = noise[i]!;
    return { contentType: 'application/vnd.kubernetes.protobuf', body: noise.length > 6 ? Buffer.concat([Buffer.from('k8s\0'), Buffer.from(noise)]) : bytes };
  }) },
  { weight: 1, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('application/json', 'application/yaml', 'text/plain', 'application/cbor', 'application/json;charset=latin1', '', 'garbage/;;')).map(([b, ct]) => ({ contentType: ct, body: Buffer.from(b) })) },
);

const queryValue = fc.oneof(
  fc.constantFrom('', '0', '1', '-1', 'true', 'True', 'FALSE', 't', 'yes', '99999999999999999999', '18446744073709551616', '1.5', 'abc', '%FF', 'All', 'Strict', 'Warn', 'Ignore', 'Exact', 'NotOlderThan', 'Orphan', 'Foreground', 'Bogus'),
  fc.string({ maxLength: 12 }),
);
const selectorValue = fc.oneof(
  fc.constantFrom('a in ()', 'a in (x,y)', 'a notin (', '!a', 'a=b,c!=d', 'a==', '=b', 'a in (x', 'x/y=z', 'metadata.name=a', 'spec.nodeName=n', 'status.phase!=Running', 'a.b.c=1', ',,', 'a=' + 'v'.repeat(80), 'metadata.namespace==fuzz'),
  fc.string({ maxLength: 16 }),
);
const queryParams = fc.array(fc.oneof(
  fc.tuple(fc.constantFrom('labelSelector', 'fieldSelector'), selectorValue),
  fc.tuple(fc.constantFrom('limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'dryRun', 'fieldManager', 'fieldValidation', 'propagationPolicy',
    'gracePeriodSeconds', 'sendInitialEvents', 'allowWatchBookmarks', 'force', 'pretty', 'orphanDependents', 'includeObject', 'watch'), queryValue),
  fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })),
), { maxLength: 4 }).chain(params => fc.constantFrom(params, [], []));

const accepts = fc.constantFrom(undefined, undefined, undefined, undefined, 'application/json', 'application/yaml', '*/*', 'application/vnd.kubernetes.protobuf', 'image/png', 'application/json;as=Table;g=meta.k8s.io;v=v1',
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'application/json;q=0', ';;;', 'application/json;as=Table;v=v9');

type Shape = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'odd';

const requestFor = (k: Kind): fc.Arbitrary<FuzzRequest> => fc.record({
  transport: fc.constantFrom<'h2' | 'h1'>('h2', 'h1'),
  shape: fc.constantFrom<Shape>('get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'odd'),
  name: names, sub: subresourceOf(k), query: queryParams, accept: accepts, body: fc.option(bodyFor(k), { nil: undefined, freq: 8 }),
  oddMethod: fc.constantFrom('OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'get'), oddPath: fc.constantFrom('', '/', '//', '/api/v1//namespaces', '/apis/%ZZ', '/healthz/%FF', '/version?x=%', '/openapi/v3/%2E%2E', '/api/v1/namespaces/%2E%2E/configmaps', '/apis/apps/v1/namespaces/fuzz/deployments/a/scale/..'),
}).map(r => {
  const method = ({ get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE', odd: r.oddMethod } as const)[r.shape];
  const named = !['list', 'watch', 'deletecollection', 'create'].includes(r.shape) || r.name.length % 3 === 0;
  let path = r.shape === 'odd' && r.name.length % 2 ? r.oddPath : `${k.collection}${named ? `/${r.name}` : ''}${named && r.sub ? `/${r.sub}` : ''}`;
  const query = new URLSearchParams(r.query);
  if (r.shape === 'watch') { query.set('watch', '1'); query.set('timeoutSeconds', '1'); }
  // HTTP/2 takes no target but a path: an empty one goes as "/"
  path ||= '/';
  const qs = query.toString();
  if (qs) path += (path.includes('?') ? '&' : '?') + qs;
  const headers: Record<string, string> = {};
  if (r.accept) headers.accept = r.accept;
  const withBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && r.body !== undefined;
  if (withBody && r.body!.contentType !== undefined) headers['content-type'] = r.body!.contentType;
  return { transport: r.transport, method, path, headers, body: withBody ? r.body!.body : undefined };
});

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(...kinds.map(requestFor));

/** raw bytes on a TLS connection speaking HTTP/1.1 */
export const rawRequest: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'CONNECT /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: x\r\n\r\n', 'GARBAGE\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n',
    'GET /api/v1/namespaces/fuzz/configmaps/%FF HTTP/1.1\r\nHost: x\r\n\r\n', 'POST /api/v1/namespaces/fuzz/configmaps HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello',
    'GET /api HTTP/1.1\r\nHost: x\r\nX: \u0001\r\n\r\n', 'GET http://evil/api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n', 'GET * HTTP/1.1\r\nHost: x\r\n\r\n',
    'PUT /api/v1/namespaces/fuzz/configmaps/a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  ),
  // a request line of some sort (empty lines before one are skipped while the server waits for it)
  fc.string({ unit: 'binary-ascii', maxLength: 200 }).map(s => `${s.trim() ? s : 'x'}\r\n\r\n`),
);

// ---------------------------------------------------------------------------------------------
// how it is sent

interface Credentials { ca: Buffer; cert: Buffer; key: Buffer; host: string; port: number }

function credentials(kubeconfig: string, url: string): Credentials {
  const kc = parseYaml(readFileSync(kubeconfig, 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64');
  const u = new URL(url);
  return { ca: b64(kc.clusters[0].cluster['certificate-authority-data']), cert: b64(kc.users[0].user['client-certificate-data']), key: b64(kc.users[0].user['client-key-data']), host: u.hostname, port: Number(u.port) };
}

/** a request the client library itself refuses to send (a header or method it will not write) */
export class Unsendable extends Error {}

export class FuzzClient {
  #creds: Credentials;
  #session?: http2.ClientHttp2Session;
  #agent: https.Agent;
  constructor(target: FuzzTarget) {
    this.#creds = credentials(target.kubeconfig, target.url);
    this.#agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
  }

  #h2(): http2.ClientHttp2Session {
    if (!this.#session || this.#session.closed || this.#session.destroyed) {
      const { ca, cert, key, host, port } = this.#creds;
      this.#session = http2.connect(`https://${host}:${port}`, { ca, cert, key });
      this.#session.on('error', () => { this.#session = undefined; });
    }
    return this.#session;
  }

  /** the reply, or an error when none came within the limit (a stream: its headers) */
  send(r: FuzzRequest): Promise<FuzzReply> {
    const started = performance.now();
    const headers = { ...r.headers, ...(r.body ? { 'content-length': String(r.body.length) } : {}) };
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let cancel = () => {};
      let streaming = false;
      const done = (v: FuzzReply | Error) => {
        clearTimeout(timer);
        cancel();
        if (v instanceof Error) reject(v); else resolve(v);
      };
      timer = setTimeout(() => done(new Error(`no reply within ${replyLimitMs} ms`)), replyLimitMs);
      const collect = (status: number, h: Record<string, string | string[] | undefined>, stream: NodeJS.ReadableStream) => {
        // a stream (a watch: every other reply is sized) is judged by its headers
        if (status === 200 && h['content-length'] === undefined) { streaming = true; done({ status, headers: h, body: '', ms: performance.now() - started }); return; }
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => done({ status, headers: h, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
        stream.on('error', (e: Error) => done(e));
      };
      if (r.transport === 'h2') {
        let stream: http2.ClientHttp2Stream;
        try {
          stream = this.#h2().request({ ':method': r.method, ':path': r.path || '/', ...headers }, { endStream: !r.body });
        } catch (err) { done(new Unsendable((err as Error).message)); return; }
        cancel = () => { if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL); };
        stream.on('response', h => collect(Number(h[':status']), h as Record<string, string>, stream));
        stream.on('error', e => done(e));
        if (r.body) stream.end(r.body);
        return;
      }
      const { ca, cert, key, host, port } = this.#creds;
      let req: ReturnType<typeof https.request>;
      try {
        req = https.request({ host, port, method: r.method, path: r.path || '/', ca, cert, key, agent: this.#agent, headers }, res => collect(res.statusCode!, res.headers, res));
      } catch (err) { done(new Unsendable((err as Error).message)); return; }
      cancel = () => { if (streaming) req.destroy(); };
      req.on('error', e => done(e));
      req.end(r.body);
    });
  }

  /** bytes written straight on a new TLS connection; what came back before it closed or went quiet */
  raw(bytes: string): Promise<{ reply: string; closed: boolean }> {
    const { ca, cert, key, host, port } = this.#creds;
    return new Promise(resolve => {
      let reply = '';
      const socket = tls.connect({ host, port, ca, cert, key, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => socket.write(Buffer.from(bytes, 'latin1')));
      const finish = (closed: boolean) => { clearTimeout(timer); socket.destroy(); resolve({ reply, closed }); };
      const timer = setTimeout(() => finish(false), replyLimitMs);
      socket.on('data', d => { reply += d.toString('latin1'); if (/\r\n\r\n/.test(reply) && !/content-length: [1-9]/i.test(reply)) finish(false); else if (/\r\n\r\n[\s\S]*\}$/.test(reply)) finish(false); });
      socket.on('close', () => finish(true));
      socket.on('error', () => finish(true));
    });
  }

  close(): void {
    this.#session?.close();
    this.#agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// what must hold

export function describe(r: FuzzRequest, reply?: FuzzReply): string {
  const body = r.body ? (r.body.length > 400 ? `${r.body.subarray(0, 400).toString('latin1')}… (${r.body.length} bytes)` : r.body.toString('latin1')) : '';
  return `${r.transport} ${r.method} ${r.path}\n  headers ${JSON.stringify(r.headers)}\n  body ${JSON.stringify(body)}` +
    (reply ? `\n  reply ${reply.status} ${JSON.stringify(reply.body.slice(0, 600))}` : '');
}

function statusOf(reply: FuzzReply): Record<string, unknown> | undefined {
  const ct = String(reply.headers['content-type'] ?? '');
  try {
    if (ct.includes('json')) return JSON.parse(reply.body) as Record<string, unknown>;
    if (ct.includes('yaml')) return parseYaml(reply.body) as Record<string, unknown>;
  } catch { return undefined; }
  return undefined;
}

/** what a reply must be; a message naming what is wrong, or undefined */
export function replyProblem(r: FuzzRequest, reply: FuzzReply): string | undefined {
  if (reply.status >= 500) return `a ${reply.status}`;
  if (reply.status < 200 || (reply.status >= 300 && reply.status < 400)) return `status ${reply.status}`;
  if (jsErrorText.test(reply.body)) return 'JavaScript error text in the reply';
  if (reply.status >= 400 && r.method !== 'HEAD') {
    const ct = String(reply.headers['content-type'] ?? '');
    if (ct.includes('protobuf')) return undefined;
    const s = statusOf(reply);
    if (!s) return `a ${reply.status} whose body is not a Status (${ct})`;
    if (s.kind !== 'Status' || s.status !== 'Failure' || s.code !== reply.status || typeof s.reason !== 'string' || !s.reason) return `a ${reply.status} with a malformed Status`;
  }
  return undefined;
}

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function storeRevision(client: FuzzClient): Promise<string> {
  // a list's resourceVersion is the newest revision of the whole store
  const reply = await client.send({ transport: 'h2', method: 'GET', path: '/api/v1/namespaces?limit=1', headers: {} });
  return String((JSON.parse(reply.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

async function healthy(client: FuzzClient): Promise<boolean> {
  const reply = await client.send({ transport: 'h2', method: 'GET', path: '/healthz', headers: {} }).catch(() => undefined);
  return reply?.status === 200;
}

/** the fuzz namespace and a few objects the requests name, so that not every request is a 404 */
export async function seed(client: FuzzClient): Promise<void> {
  const post = (path: string, obj: Json) => client.send({ transport: 'h2', method: 'POST', path, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(obj)) });
  await post('/api/v1/namespaces', { metadata: { name: fuzzNamespace } });
  // pods need the namespace's default service account, which no controller makes here (quietServerArgs)
  await post(`/api/v1/namespaces/${fuzzNamespace}/serviceaccounts`, { metadata: { name: 'default' } });
  for (const k of kinds) for (const name of ['a', 'b']) await post(k.collection, k.object(name));
}

/**
 * Runs the property; throws (with the seed, the shrunk request and its reply) on the first
 * failure. Every `checkEvery` cases the server must be healthy and within its memory bound.
 */
export async function fuzzServer(target: FuzzTarget, opts: FuzzOptions): Promise<FuzzResult> {
  const client = new FuzzClient(target);
  const maxRss = opts.maxRssBytes ?? 600 * 1024 * 1024;
  const started = performance.now();
  let done = 0, peak = 0;
  const statuses: Record<number, number> = {};
  const checkMemory = async () => {
    const rss = rssBytes(target.pid);
    peak = Math.max(peak, rss);
    if (!(await healthy(client))) throw new Error('the server stopped answering /healthz');
    if (rss > maxRss) throw new Error(`the server holds ${(rss / 2 ** 20).toFixed(0)} MiB, over ${(maxRss / 2 ** 20).toFixed(0)} MiB`);
    opts.progress?.(done, rss);
  };
  try {
    await seed(client);
    const property = fc.asyncProperty(fc.oneof({ weight: 40, arbitrary: fuzzRequest.map(r => ({ r })) }, { weight: 1, arbitrary: rawRequest.map(raw => ({ raw })) }), async c => {
      done++;
      if (done % 500 === 0) await checkMemory();
      if ('raw' in c) {
        const { reply, closed } = await client.raw(c.raw);
        if (!reply && !closed) throw new Error(`raw request ${JSON.stringify(c.raw.slice(0, 200))}: neither a reply nor a close within ${replyLimitMs} ms`);
        if (/^HTTP\/1\.1 5/.test(reply)) throw new Error(`raw request ${JSON.stringify(c.raw.slice(0, 200))}: ${reply.slice(0, 300)}`);
        return;
      }
      const before = writes.has(c.r.method) ? await storeRevision(client) : undefined;
      let reply: FuzzReply;
      try {
        reply = await client.send(c.r);
      } catch (err) {
        if (err instanceof Unsendable) return;
        throw new Error(`${(err as Error).message}\n${describe(c.r)}`);
      }
      statuses[reply.status] = (statuses[reply.status] ?? 0) + 1;
      const problem = replyProblem(c.r, reply);
      if (problem) throw new Error(`${problem}\n${describe(c.r, reply)}`);
      if (before !== undefined && reply.status >= 400) {
        const after = await storeRevision(client);
        if (after !== before) throw new Error(`a rejected request wrote (revision ${before} → ${after})\n${describe(c.r, reply)}`);
      }
    });
    await fc.assert(property, { numRuns: opts.runs, seed: opts.seed, endOnFailure: false, interruptAfterTimeLimit: undefined });
    await checkMemory();
  } finally {
    client.close();
  }
  return { runs: opts.runs, ms: performance.now() - started, maxRssBytes: peak, statuses };
}
