import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../../src/schema/catalog.ts';
import { openapiHandler, openapiV2ProtobufType } from '../../../src/apiserver/openapi.ts';
import { convertSchema } from '../../../src/apiserver/openapi-v3.ts';

type Json = Record<string, any>;
const handler = openapiHandler(createCatalog());
const get = (path: string, headers: Record<string, string> = {}, query = '') => handler(path, new URLSearchParams(query), headers);

test('non-OpenAPI paths are not ours', () => {
  assert.equal(get('/api/v1'), undefined);
  assert.equal(get('/openapi/v3/apis/apps'), undefined);
  assert.equal(get('/openapi/v3/apis/apps/v1beta1'), undefined);
});

test('/openapi/v2 as JSON: served paths and the definitions they need', () => {
  const res = get('/openapi/v2', { accept: 'application/json' })!;
  assert.equal(res.status, 200);
  assert.equal(res.headers['Content-Type'], 'application/json');
  assert.match(res.headers.ETag!, /^"[0-9A-F]{128}"$/);
  const doc = JSON.parse(String(res.body)) as Json;
  assert.equal(doc.swagger, '2.0');
  const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
  assert.equal(patch['x-kubernetes-action'], 'patch');
  assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', kind: 'Deployment', version: 'v1' });
  assert.ok(patch.parameters.some((p: Json) => p.name === 'fieldValidation' && p.in === 'query'));
  assert.equal(doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'].get.responses['200'].schema.$ref, '#/definitions/io.k8s.api.autoscaling.v1.Scale');
  assert.equal(doc.paths['/api/v1/pods'].get.operationId, 'listCoreV1PodForAllNamespaces');
  // the subresources this server implements, with what their modules declare
  const exec = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/exec'];
  assert.deepEqual([exec.get.operationId, exec.post.operationId, exec.get['x-kubernetes-action']], ['connectCoreV1GetNamespacedPodExec', 'connectCoreV1PostNamespacedPodExec', 'connect']);
  const log = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/log'].get;
  assert.deepEqual(log.produces, ['text/plain', 'application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
  assert.ok(log.parameters.some((p: Json) => p.name === 'tailLines' && p.type === 'integer'));
  assert.equal(doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/binding'].post.parameters[0].schema.$ref, '#/definitions/io.k8s.api.core.v1.Binding');
  // nothing from versions that are not served
  assert.ok(!Object.keys(doc.paths).some(p => p.includes('v1beta1')));
  assert.ok(doc.definitions['io.k8s.api.core.v1.PodSpec']);
  assert.deepEqual(doc.definitions['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Pod', version: 'v1' }]);
  assert.equal(doc.definitions['io.k8s.api.coordination.v1beta1.LeaseCandidate'], undefined);
});

test('/openapi/v2 conditional GET and negotiation', () => {
  const first = get('/openapi/v2')!;
  const again = get('/openapi/v2', { 'if-none-match': first.headers.ETag! })!;
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal(get('/openapi/v2', { accept: 'text/html' })!.status, 406);
});

/** the fields of one protobuf message: field number → raw values */
function fields(buf: Buffer): Map<number, Array<Buffer | number>> {
  const out = new Map<number, Array<Buffer | number>>();
  let i = 0;
  const varint = () => { let v = 0, m = 1, b; do { b = buf[i++]!; v += (b & 0x7f) * m; m *= 128; } while (b & 0x80); return v; };
  while (i < buf.length) {
    const key = varint();
    const wire = key & 7;
    let val: Buffer | number;
    if (wire === 0) val = varint();
    else if (wire === 2) { const n = varint(); val = buf.subarray(i, i + n); i += n; }
    else if (wire === 1) { val = buf.readDoubleLE(i); i += 8; }
    else throw new Error(`wire type ${wire}`);
    out.set(key >> 3, [...(out.get(key >> 3) ?? []), val]);
  }
  return out;
}
const str = (b: Buffer | number | undefined) => (b as Buffer).toString('utf8');

test('/openapi/v2 as protobuf (what kubectl 1.27 requires)', () => {
  const res = get('/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' })!;
  assert.equal(res.status, 200);
  assert.equal(res.headers['Content-Type'], openapiV2ProtobufType);
  assert.ok(Buffer.isBuffer(res.body));
  const doc = fields(res.body as Buffer);
  assert.equal(str(doc.get(1)![0]), '2.0');
  const defs = fields(doc.get(9)![0] as Buffer).get(1)!.map(b => fields(b as Buffer));
  const pod = defs.find(d => str(d.get(1)![0]) === 'io.k8s.api.core.v1.Pod')!;
  const podSchema = fields(pod.get(2)![0] as Buffer);
  const ext = fields(podSchema.get(31)![0] as Buffer);
  assert.equal(str(ext.get(1)![0]), 'x-kubernetes-group-version-kind');
  assert.deepEqual(JSON.parse(str(fields(ext.get(2)![0] as Buffer).get(2)![0])), [{ group: '', kind: 'Pod', version: 'v1' }]);
  // the PATCH of a pod has a fieldValidation query parameter (kubectl then validates on the server)
  const paths = fields(doc.get(8)![0] as Buffer).get(2)!.map(b => fields(b as Buffer));
  const item = paths.find(p => str(p.get(1)![0]) === '/api/v1/namespaces/{namespace}/pods/{name}')!;
  const patch = fields(fields(item.get(2)![0] as Buffer).get(8)![0] as Buffer);
  const names = patch.get(8)!.map(p => {
    const param = fields(fields(p as Buffer).get(1)![0] as Buffer);
    const nonBody = param.get(2);
    if (!nonBody) return 'body';
    const query = fields(nonBody[0] as Buffer).get(3);
    return query ? str(fields(query[0] as Buffer).get(4)![0]) : '?';
  });
  assert.ok(names.includes('fieldValidation'), names.join(','));
});

test('/openapi/v3 index points at hashed group-version documents', () => {
  const res = get('/openapi/v3', { accept: 'application/json, */*' })!;
  assert.equal(res.status, 200);
  const index = JSON.parse(String(res.body)) as Json;
  assert.match(index.paths['api/v1'].serverRelativeURL, /^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
  assert.ok(index.paths['apis/apps/v1']);
  assert.ok(index.paths['apis/autoscaling/v2']);
  assert.equal(index.paths['apis/storage.k8s.io/v1beta1'], undefined);
  const url = new URL(index.paths['apis/apps/v1'].serverRelativeURL, 'http://x');
  const doc = get(url.pathname, { accept: 'application/json' }, url.search)!;
  assert.equal(doc.status, 200);
  assert.match(doc.headers['Cache-Control']!, /immutable/);
  const stale = get(url.pathname, {}, '?hash=ABC')!;
  assert.equal(stale.status, 301);
  assert.equal(stale.headers.Location, index.paths['apis/apps/v1'].serverRelativeURL);
});

test('/openapi/v3/apis/apps/v1 is OpenAPI 3 with components.schemas', () => {
  const doc = JSON.parse(String(get('/openapi/v3/apis/apps/v1')!.body)) as Json;
  assert.equal(doc.openapi, '3.0.0');
  const deployment = doc.components.schemas['io.k8s.api.apps.v1.Deployment'];
  assert.deepEqual(deployment['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  assert.equal(deployment.properties.spec.$ref, '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec');
  assert.ok(doc.components.schemas['io.k8s.api.autoscaling.v1.Scale']);
  assert.equal(doc.components.schemas['io.k8s.api.batch.v1.Job'], undefined);
  assert.ok(!JSON.stringify(doc).includes('#/definitions/'));
  const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
  assert.ok(patch.parameters.some((p: Json) => p.name === 'fieldValidation' && p.in === 'query' && p.schema.type === 'string'));
  assert.deepEqual(Object.keys(patch.requestBody.content).sort(), ['application/apply-patch+cbor', 'application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  assert.equal(patch.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/io.k8s.api.apps.v1.Deployment');
});

test('a $ref with sibling keys is wrapped in allOf', () => {
  assert.deepEqual(convertSchema({ $ref: '#/definitions/A', 'x-kubernetes-patch-strategy': 'retainKeys' }), { allOf: [{ $ref: '#/components/schemas/A' }], 'x-kubernetes-patch-strategy': 'retainKeys' });
  assert.deepEqual(convertSchema({ type: 'array', items: { $ref: '#/definitions/B' } }), { type: 'array', items: { $ref: '#/components/schemas/B' } });
});
