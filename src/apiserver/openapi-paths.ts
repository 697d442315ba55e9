// Swagger 2.0 path items for served resources and the subresources this server implements,
// built from the catalog and the subresource table rather than stored:
// the operations of every resource follow one pattern, so only the resource table is kept.
// Shapes (operation ids, actions, parameters, media types) follow what kube-apiserver publishes;
// kubectl reads the PATCH operations' x-kubernetes-group-version-kind and fieldValidation
// parameter to learn that the server validates fields itself.

import type { ResourceInfo } from '../schema/types.ts';
import { generatedResources } from '../schema/generated/resources.ts';
import { subresourcesOf } from '../registry/subresources/table.ts';
import { crdDefinitionName } from '../schema/crd-openapi/definitions.ts';
import type { SubresourceVerb } from '../registry/subresources/subresource.ts';

type Json = Record<string, unknown>;

const listDefinitions = new Map<string, string>();
for (const r of generatedResources) {
  if (r.listDefinition) listDefinitions.set(`${r.group}/${r.version}/${r.resource}`, r.listDefinition);
}

const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const objectMedia = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor'];
const listMedia = [...objectMedia, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch', 'application/cbor-seq'];
const patchMedia = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/apply-patch+cbor'];

/** what a route consumes and produces: built-ins' media, or what the CRD builder declares for custom resources */
interface Media { object: string[]; list: string[]; patch: string[]; consumes: string[] }
const builtInMedia: Media = { object: objectMedia, list: listMedia, patch: patchMedia, consumes: ['*/*'] };
const customMedia: Media = {
  object: ['application/json', 'application/yaml'],
  list: ['application/json', 'application/yaml'],
  patch: ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'],
  consumes: ['application/json', 'application/yaml'],
};

const q = (name: string, type: string): Json => ({ in: 'query', name, type, uniqueItems: true });
const pathParam = (name: string): Json => ({ in: 'path', name, required: true, type: 'string', uniqueItems: true });
const ref = (def: string): Json => ({ $ref: `#/definitions/${def}` });
const body = (def: string, required = true): Json => (required ? { in: 'body', name: 'body', required: true, schema: ref(def) } : { in: 'body', name: 'body', schema: ref(def) });

const listParams = [q('allowWatchBookmarks', 'boolean'), q('continue', 'string'), q('fieldSelector', 'string'), q('labelSelector', 'string'), q('limit', 'integer'), q('resourceVersion', 'string'), q('resourceVersionMatch', 'string'), q('sendInitialEvents', 'boolean'), q('shardSelector', 'string'), q('timeoutSeconds', 'integer'), q('watch', 'boolean')];
const writeParams = [q('dryRun', 'string'), q('fieldManager', 'string'), q('fieldValidation', 'string')];
const deleteParams = [q('dryRun', 'string'), q('gracePeriodSeconds', 'integer'), q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'), q('orphanDependents', 'boolean'), q('propagationPolicy', 'string')];

function capitalize(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** 'rbac.authorization.k8s.io' → 'RbacAuthorization', '' → 'Core' (the prefix of operation ids) */
export function groupIdentifier(group: string): string {
  if (!group) return 'Core';
  return group.replace(/\.k8s\.io$/, '').split(/[.-]/).map(capitalize).join('');
}

export function apiPrefix(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

interface OpContext { r: ResourceInfo; gvk: Json; tag: string; idBase: string; ns: string; media: Media }

function op(ctx: OpContext, action: string, id: string, fields: Json, gvk: Json = ctx.gvk): Json {
  if (fields.parameters === undefined) delete fields.parameters;
  return {
    consumes: ctx.media.consumes,
    produces: ctx.media.object,
    schemes: ['https'],
    tags: [ctx.tag],
    operationId: id,
    ...fields,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
  };
}

function responses(def: Json, codes: string[]): Json {
  const out: Json = {};
  for (const c of codes) out[c] = { schema: def };
  out['401'] = {};
  return out;
}

/**
 * The path items of one served resource (its collection, item and subresource paths). A custom
 * resource's refer to its CRD definitions, and every operation of it, its subresources' too,
 * carries its own group-version-kind, as apiextensions-apiserver publishes them.
 */
export function resourcePaths(served: ResourceInfo): Record<string, Json> {
  const custom = served.custom !== undefined;
  const r = custom ? { ...served, definition: crdDefinitionName(served.group, served.version, served.kind) } : served;
  const media = custom ? customMedia : builtInMedia;
  const prefix = apiPrefix(r.group, r.version);
  const ns = r.namespaced ? 'Namespaced' : '';
  const idBase = `${groupIdentifier(r.group)}${capitalize(r.version)}`;
  const gid = groupIdentifier(r.group);
  const ctx: OpContext = { r, gvk: { group: r.group, kind: r.kind, version: r.version }, tag: `${gid[0]!.toLowerCase()}${gid.slice(1)}_${r.version}`, idBase, ns, media };
  const kindDef = ref(r.definition);
  const listDef = ref(custom ? crdDefinitionName(r.group, r.version, r.listKind) : listDefinitions.get(`${r.group}/${r.version}/${r.resource}`) ?? `${r.definition}List`);
  const status = ref(`${meta}.Status`);
  const scoped = r.namespaced ? `${prefix}/namespaces/{namespace}/${r.resource}` : `${prefix}/${r.resource}`;
  const common = r.namespaced ? [{ ...pathParam('namespace') }, q('pretty', 'string')] : [q('pretty', 'string')];
  const itemCommon = [pathParam('name'), ...common];
  const paths: Record<string, Json> = {};
  const has = (v: string) => r.verbs.includes(v);
  const K = r.kind;

  const collection: Json = {};
  if (has('list')) collection.get = op(ctx, 'list', `list${idBase}${ns}${K}`, { parameters: listParams, produces: media.list, responses: responses(listDef, ['200']) });
  if (has('create')) collection.post = op(ctx, 'post', `create${idBase}${ns}${K}`, { parameters: [body(r.definition), ...writeParams], responses: responses(kindDef, ['200', '201', '202']) });
  if (has('deletecollection')) collection.delete = op(ctx, 'deletecollection', `delete${idBase}Collection${ns}${K}`, { parameters: [body(`${meta}.DeleteOptions`, false), ...deleteParams, ...listParams.filter(p => p.name !== 'watch' && p.name !== 'allowWatchBookmarks')], responses: responses(status, ['200']) });
  if (Object.keys(collection).length) paths[scoped] = { ...collection, parameters: common };

  if (r.namespaced && has('list')) {
    paths[`${prefix}/${r.resource}`] = {
      get: op(ctx, 'list', `list${idBase}${K}ForAllNamespaces`, { parameters: listParams, produces: media.list, responses: responses(listDef, ['200']) }),
      parameters: [q('pretty', 'string')],
    };
  }

  const item: Json = {};
  if (has('get')) item.get = op(ctx, 'get', `read${idBase}${ns}${K}`, { responses: responses(kindDef, ['200']) });
  if (has('update')) item.put = op(ctx, 'put', `replace${idBase}${ns}${K}`, { parameters: [body(r.definition), ...writeParams], responses: responses(kindDef, ['200', '201']) });
  if (has('patch')) item.patch = op(ctx, 'patch', `patch${idBase}${ns}${K}`, { consumes: media.patch, parameters: [body(`${meta}.Patch`), ...writeParams, q('force', 'boolean')], responses: responses(kindDef, ['200', '201']) });
  if (has('delete')) item.delete = op(ctx, 'delete', `delete${idBase}${ns}${K}`, { parameters: [body(`${meta}.DeleteOptions`, false), ...deleteParams], responses: responses(status, ['200', '202']) });
  if (Object.keys(item).length) paths[`${scoped}/{name}`] = { ...item, parameters: itemCommon };

  for (const s of subresourcesOf(r)) {
    const k = s.kind(r);
    const gvk = custom ? ctx.gvk : { group: k.group, kind: k.kind, version: k.version };
    const idSub = `${ns}${K}${capitalize(s.name)}`;
    const path = `${scoped}/{name}/${s.name}`;
    const pi: Json = {};
    if (s.connect) {
      const methods: Array<[string, SubresourceVerb]> = [['get', 'get'], ['post', 'create'], ['put', 'update'], ['patch', 'patch'], ['delete', 'delete']];
      for (const [method, verb] of methods) {
        if (!s.verbs.includes(verb)) continue;
        pi[method] = op(ctx, 'connect', `connect${idBase}${capitalize(method)}${idSub}`, { consumes: ['*/*'], produces: ['*/*'], responses: responses({ type: 'string' }, ['200']) }, gvk);
      }
    } else {
      const def = k.definition ? ref(k.definition) : { type: 'string' };
      const produces = s.produces ?? media.object;
      const parameters = s.getParameters?.map(p => q(p.name, p.type));
      if (s.verbs.includes('get')) pi.get = op(ctx, 'get', `read${idBase}${idSub}`, { produces: [...produces], parameters, responses: responses(def, ['200']) }, gvk);
      if (s.verbs.includes('update')) pi.put = op(ctx, 'put', `replace${idBase}${idSub}`, { parameters: [{ in: 'body', name: 'body', required: true, schema: def }, ...writeParams], responses: responses(def, ['200', '201']) }, gvk);
      if (s.verbs.includes('patch')) pi.patch = op(ctx, 'patch', `patch${idBase}${idSub}`, { consumes: media.patch, parameters: [body(`${meta}.Patch`), ...writeParams, q('force', 'boolean')], responses: responses(def, ['200', '201']) }, gvk);
      if (s.verbs.includes('create')) pi.post = op(ctx, 'post', `create${idBase}${idSub}`, { parameters: [{ in: 'body', name: 'body', required: true, schema: def }, ...writeParams], responses: responses(def, ['200', '201', '202']) }, gvk);
    }
    if (Object.keys(pi).length) paths[path] = { ...pi, parameters: itemCommon };
    // a proxy also answers under every path after its name, as `.../proxy/{path}`
    if (s.proxyLocation && Object.keys(pi).length) {
      const withPath: Json = {};
      for (const [method, o] of Object.entries(pi)) withPath[method] = { ...(o as Json), operationId: `${(o as Json).operationId}WithPath` };
      paths[`${path}/{path}`] = { ...withPath, parameters: [pathParam('name'), pathParam('path'), ...common] };
    }
  }
  return paths;
}
