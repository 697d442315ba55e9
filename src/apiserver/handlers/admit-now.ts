// Admission for requests the registry's write pipeline does not carry: a connect (exec,
// attach, port-forward, proxy) with its options object, and a subresource's create (binding,
// eviction, token) with its body. Both phases run before the subresource acts, as
// kube-apiserver's connect and create handlers run them.

import type { KubeObject } from '../../api/object.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { admitNow, optionsObject } from '../admission/request.ts';
import { connectOptions } from '../admission/connect-options.ts';

export async function admitConnect(ctx: RequestContext, deps: HandlerDeps, proxyPath?: string): Promise<void> {
  if (!deps.admission) return;
  await admitNow(ctx, deps.admission, 'CONNECT', connectOptions(ctx.resource!.resource, ctx.info.subresource ?? '', ctx.query, proxyPath), false);
}

export async function admitSubresourceCreate(ctx: RequestContext, deps: HandlerDeps, body: KubeObject, dryRun: boolean, manager?: string): Promise<void> {
  if (!deps.admission) return;
  await admitNow(ctx, deps.admission, 'CREATE', body, dryRun, optionsObject('CreateOptions', dryRun, manager));
}
