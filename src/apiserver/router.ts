// Resource requests: find the served resource, check the verb is allowed on it, run the handler.

import { badRequest, methodNotAllowed, notFound, resourceNotFound, StatusError } from '../api/status.ts';
import { pathSegmentName } from '../api/names.ts';
import type { RequestContext } from './context.ts';
import type { CustomResourceServing } from '../schema/types.ts';
import { negotiateBeforeWriting } from './respond.ts';
import { subresourceOf } from '../registry/subresources/table.ts';
import type { HandlerDeps } from './handlers/deps.ts';
import { handleGet } from './handlers/get.ts';
import { handleList } from './handlers/list.ts';
import { handleWatch } from './handlers/watch.ts';
import { handleCreate } from './handlers/create.ts';
import { handleUpdate } from './handlers/update.ts';
import { handlePatch } from './handlers/patch.ts';
import { handleDelete } from './handlers/delete.ts';
import { handleDeleteCollection } from './handlers/delete-collection.ts';
import { metricsGroup } from './metrics-api/catalog.ts';
import { serveMetrics } from './metrics-api/serve.ts';
import { connectSubresource } from './handlers/connect.ts';
import { handleProxy } from './proxy/handle.ts';

const writeVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

type Handler = (ctx: RequestContext, deps: HandlerDeps) => Promise<void>;

const handlers: Record<string, Handler> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

export async function routeResource(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const ri = ctx.info;
  // metrics.k8s.io is served from the node agents, never from storage
  if (ri.group === metricsGroup) return serveMetrics(ctx, deps);
  const info = deps.catalog.lookup(ri.group, ri.version, ri.resource);
  if (!info) throw resourceNotFound();
  checkPathName('Namespace', ri.namespace);
  checkPathName('Name', ri.name);
  ctx.resource = info;
  if (ri.namespace !== undefined && !info.namespaced) throw resourceNotFound();
  // KEP-4974: every use of core/v1 Endpoints is answered with this warning from 1.33 on
  if (ri.group === '' && ri.resource === 'endpoints') ctx.warnings.push('v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice');
  if (info.custom) checkCustomResource(ctx, info.custom);
  if (ri.subresource) {
    // the subresources this server implements, from the registry's table; only a proxy takes a path after its name
    const [name, ...subpath] = ri.subresource.split('/');
    const sub = subresourceOf(info, name!);
    if (!sub || (subpath.length && !sub.proxyLocation)) throw resourceNotFound();
    const verb = ri.verb === 'watch' ? 'get' : ri.verb;
    // a proxy relays every method it takes (handleProxy says which)
    if (!sub.proxyLocation && !(sub.verbs as readonly string[]).includes(verb)) throw methodNotAllowed();
    ctx.subresource = sub;
    if (sub.upgradeTarget) return connectSubresource(ctx, deps, sub.upgradeTarget);
  } else {
    // a collection is created into, listed, watched and deleted; it is never replaced or patched
    if ((ri.verb === 'update' || ri.verb === 'patch') && ri.name === undefined) throw methodNotAllowed();
    const verb = ri.verb === 'watch' && ri.name !== undefined ? 'watch' : ri.verb;
    if (!info.verbs.includes(verb)) throw methodNotAllowed();
  }
  // a namespaced collection read across all namespaces has no namespace; a write needs one
  if (info.namespaced && ri.namespace === undefined && !['list', 'watch', 'deletecollection'].includes(ri.verb)) {
    throw notFound({ group: '', resource: 'namespaces' }, '');
  }
  if (ctx.subresource?.proxyLocation) return handleProxy(ctx, deps, ctx.subresource);
  const handler = handlers[ri.verb];
  if (!handler) throw methodNotAllowed();
  if (writeVerbs.has(ri.verb)) negotiateBeforeWriting(ctx);
  await handler(ctx, deps);
}

/** a deprecated CRD version warns on every request; a terminating CRD takes no new objects */
function checkCustomResource(ctx: RequestContext, custom: CustomResourceServing): void {
  if (custom.deprecationWarning) ctx.warnings.push(custom.deprecationWarning);
  if (custom.terminating && ctx.info.verb === 'create') {
    throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating');
  }
}

/** `.`, `..` and names holding '/' or '%' never name an object, whatever the resource */
function checkPathName(what: 'Name' | 'Namespace', value: string | undefined): void {
  if (value === undefined) return;
  const errs = pathSegmentName(value);
  if (errs.length) throw badRequest(`${what} parameter invalid: ${JSON.stringify(value)}: ${errs.join(';')}`);
}
