// Fuzzed requests: every verb on every kind of resources.ts, on the collection, an object or one
// of its subresources, with odd names, query parameters (the options of lists, watches, writes,
// deletes and streams), Accept headers of every representation (Table, PartialObjectMetadata,
// protobuf, CBOR, watch streams) and a body from bodies.ts; and raw bytes for a TLS socket.

import fc from 'fast-check';
import { bodyFor, oddValue, type Body, type BodyShape } from './bodies.ts';
import { kinds, type Kind } from './resources.ts';

export interface FuzzRequest {
  transport: 'h2' | 'h1';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const names = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('a', 'b', 'c') }, { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2E%2E', '%2e', '%FF', 'a%2Fb', '%25', 'A_B', 'x'.repeat(300), '%00', 'caf%C3%A9', '%E0%A4%A', '%ZZ', '-a-', 'a:80', 'https:a:443', 'a:', ':80') });

const queryValue = fc.oneof(
  fc.constantFrom('', '0', '1', '-1', 'true', 'True', 'FALSE', 't', 'yes', '99999999999999999999', '18446744073709551616', '1.5', 'abc', '%FF', 'All', 'Strict', 'Warn', 'Ignore', 'Exact', 'NotOlderThan',
    'Orphan', 'Foreground', 'Background', 'Bogus', 'Object', 'Metadata', 'None', 'c', 'sh', '80', '/', '/../x', 'shardRange(object.metadata.uid, \'0x0\', \'0x8\')'),
  fc.string({ maxLength: 12 }),
);
const selectorValue = fc.oneof(
  fc.constantFrom('a in ()', 'a in (x,y)', 'a notin (', '!a', 'a=b,c!=d', 'a==', '=b', 'a in (x', 'x/y=z', 'metadata.name=a', 'spec.nodeName=n', 'status.phase!=Running', 'a.b.c=1', ',,', 'a=' + 'v'.repeat(80),
    'metadata.namespace==fuzz', 'spec.replicas=1', 'type=Opaque', 'spec.signerName=example.com/fuzz', 'status.phase=Active'),
  fc.string({ maxLength: 16 }),
);
const queryParams = fc.array(fc.oneof(
  fc.tuple(fc.constantFrom('labelSelector', 'fieldSelector'), selectorValue),
  fc.tuple(fc.constantFrom('limit', 'continue', 'resourceVersion', 'resourceVersionMatch', 'dryRun', 'fieldManager', 'fieldValidation', 'propagationPolicy',
    'gracePeriodSeconds', 'sendInitialEvents', 'allowWatchBookmarks', 'force', 'pretty', 'orphanDependents', 'includeObject', 'watch', 'timeoutSeconds',
    'ignoreStoreReadErrorWithClusterBreakingPotential', 'shardSelector', 'container', 'follow', 'tailLines', 'limitBytes', 'sinceSeconds', 'previous', 'timestamps',
    'command', 'stdin', 'stdout', 'tty', 'ports', 'path', 'insecureSkipTLSVerifyBackend'), queryValue),
  fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })),
), { maxLength: 4 }).chain(params => fc.constantFrom(params, [], []));

const accepts = fc.constantFrom(undefined, undefined, undefined, undefined, 'application/json', 'application/yaml', '*/*', 'application/vnd.kubernetes.protobuf', 'application/cbor', 'image/png',
  'application/json;as=Table;g=meta.k8s.io;v=v1', 'application/json;as=Table;g=meta.k8s.io;v=v1beta1', 'application/yaml;as=Table;g=meta.k8s.io;v=v1',
  'application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1', 'application/cbor;as=Table;g=meta.k8s.io;v=v1', 'application/json;as=Table;v=v9', 'application/json;as=Table;g=bogus;v=v1',
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1',
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'application/cbor;as=PartialObjectMetadata;g=meta.k8s.io;v=v1',
  'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch', 'application/cbor;stream=watch', 'application/json, application/yaml;q=0.9', 'application/*', 'text/html',
  'application/json;as=Table;g=meta.k8s.io;v=v1, application/json', 'application/json;q=0', ';;;', 'application/json;as=APIGroupDiscoveryList;v=v2;g=apidiscovery.k8s.io');

/** DeleteOptions in a body, the unsafe delete of corrupt objects among them */
const deleteOptions = fc.record({
  kind: fc.constantFrom('DeleteOptions', 'Pod', undefined),
  apiVersion: fc.constantFrom('v1', 'meta.k8s.io/v1', 'bogus/v1', undefined),
  gracePeriodSeconds: fc.option(fc.oneof(fc.integer({ min: -2, max: 30 }), oddValue), { nil: undefined }),
  propagationPolicy: fc.option(fc.constantFrom('Orphan', 'Background', 'Foreground', 'Bogus', ''), { nil: undefined }),
  orphanDependents: fc.option(fc.boolean(), { nil: undefined }),
  dryRun: fc.option(fc.constantFrom(['All'], ['Bogus'], []), { nil: undefined }),
  preconditions: fc.option(fc.record({ uid: fc.constantFrom('x', ''), resourceVersion: fc.constantFrom('1', '0', 'x') }, { requiredKeys: [] }), { nil: undefined }),
  ignoreStoreReadErrorWithClusterBreakingPotential: fc.option(fc.oneof(fc.boolean(), oddValue), { nil: undefined, freq: 2 }),
}, { requiredKeys: [] }).map((o): Body => ({ contentType: 'application/json', body: Buffer.from(JSON.stringify(o)) }));

type Shape = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'odd';
const methodOf = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE', odd: '' } as const;

/** what a request's body is made from: the subresource's own kind where it has one */
function bodyShape(k: Kind, sub: string | undefined): BodyShape {
  const own = k.subresources.find(s => s.name === sub)?.body;
  if (!own) return k;
  const sample = own('a');
  return { apiVersion: String(sample.apiVersion ?? k.apiVersion), kind: String(sample.kind ?? k.kind), object: own };
}

// a body's arbitrary per kind and subresource (or delete), built once: building one per case would cost more than drawing from it
const bodyArbitraries = new Map<string, fc.Arbitrary<Body | undefined>>();
function bodies(k: Kind, sub: string | undefined): fc.Arbitrary<Body | undefined> {
  const key = `${k.collection} ${sub}`;
  let arb = bodyArbitraries.get(key);
  if (!arb) bodyArbitraries.set(key, arb = fc.option(sub === 'delete' ? fc.oneof(deleteOptions, bodyFor(k)) : bodyFor(bodyShape(k, sub)), { nil: undefined, freq: 8 }));
  return arb;
}

const requestFor = (k: Kind): fc.Arbitrary<FuzzRequest> => fc.record({
  transport: fc.constantFrom<'h2' | 'h1'>('h2', 'h1'),
  shape: fc.constantFrom<Shape>('get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'odd'),
  name: names, unnamed: fc.nat(9),
  sub: fc.option(fc.constantFrom(...k.subresources.map(s => s.name), 'bogus', '..', 'status/extra'), { nil: undefined, freq: 3 }),
  query: queryParams, accept: accepts,
  oddMethod: fc.constantFrom('OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'get', 'CONNECT'), oddPath: fc.constantFrom('', '/', '//', '/api/v1//namespaces', '/apis/%ZZ', '/healthz/%FF', '/version?x=%',
    '/openapi/v3/%2E%2E', '/api/v1/namespaces/%2E%2E/configmaps', '/apis/apps/v1/namespaces/fuzz/deployments/a/scale/..', '/apis/fuzz.orch.io/v1', '/apis/fuzz.orch.io/v2/namespaces/fuzz/widgets',
    '/openapi/v3/apis/fuzz.orch.io/v1', '/api/v1/namespaces/fuzz/pods/a/proxy/x/../../y', '/api/v1/nodes/fz-node/proxy/pods', '/apis/metrics.k8s.io/v1beta1/pods', '/livez?verbose', '/readyz/bogus', '/metrics'),
}).chain(r => {
  const sub = r.sub && k.subresources.some(s => s.name === r.sub) ? r.sub : undefined;
  return bodies(k, r.shape === 'delete' || r.shape === 'deletecollection' ? 'delete' : sub).map(b => ({ ...r, body: b }));
}).map(r => {
  const method = r.shape === 'odd' ? r.oddMethod : methodOf[r.shape];
  const collectionShape = ['list', 'watch', 'deletecollection'].includes(r.shape);
  const named = collectionShape ? r.unnamed === 0 : r.shape === 'create' ? r.sub !== undefined || r.unnamed === 0 : r.unnamed !== 0;
  // cluster-scoped kinds name their own objects `fz-…`; the cluster's own are left alone
  const name = k.namePrefix && /^[abc]$/.test(r.name) ? `${k.namePrefix}${r.name}` : r.name;
  let path = r.shape === 'odd' && r.name.length % 2 ? r.oddPath : `${k.collection}${named ? `/${name}` : ''}${named && r.sub ? `/${r.sub}` : ''}`;
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
    'GET /api/v1/namespaces/fuzz/pods/a/exec?command=sh HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: bogus\r\n\r\n',
    'GET /api/v1/namespaces/fuzz/pods/a/exec?command=sh&stdout=1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: x\r\n\r\n',
    'GET /api/v1/namespaces/fuzz/pods/a/portforward HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    'GET /api/v1/namespaces/fuzz/pods/a/attach?stdout=1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n',
  ),
  // a request line of some sort (empty lines before one are skipped while the server waits for it)
  fc.string({ unit: 'binary-ascii', maxLength: 200 }).map(s => `${s.trim() ? s : 'x'}\r\n\r\n`),
);
