// A request to a subresource, handed to its module in the registry's subresource table, and
// what the module answers sent back: an object, or bytes streamed from a node agent.

import type { SubresourceCall, SubresourceResult } from '../../registry/subresources/subresource.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { sendObject } from '../respond.ts';
import { streamFromNode } from '../node-stream.ts';

export function subresourceCall(ctx: RequestContext, deps: HandlerDeps, write?: { dryRun: boolean; manager: string }): SubresourceCall {
  return {
    registry: deps.registry,
    info: ctx.resource!,
    namespace: ctx.info.namespace,
    name: ctx.info.name!,
    query: ctx.query,
    dryRun: write?.dryRun ?? false,
    manager: write?.manager,
    now: deps.now,
    lookup: (group, version, resource) => deps.catalog.lookup(group, version, resource),
    tokens: deps.serviceAccountTokens,
  };
}

export async function sendSubresourceResult(ctx: RequestContext, deps: HandlerDeps, result: SubresourceResult): Promise<void> {
  if (result.type === 'object') return sendObject(ctx, result.code, result.object);
  // no location (a pod's log before it is on a node): 204 No Content, as kube-apiserver answers a stream it has none of
  if (!result.url) { ctx.res.writeHead(204, {}); ctx.res.end(); return; }
  await streamFromNode(ctx, result.url, result.contentType, deps.nodeClientTls);
}
