// The `connect` verb of exec, attach and portforward: the subresource checks the request and
// names the agent endpoint, then the upgraded connection is relayed there untouched. Checks come
// first, so a bad request is answered with its Status whether or not it asked to upgrade.

import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import type { SubresourceCall } from '../../registry/subresources/subresource.ts';
import { subresourceCall } from './subresource.ts';
import { relayUpgrade, upgradeRequired } from '../connect-relay.ts';
import { admitConnect } from './admit-now.ts';

export async function connectSubresource(ctx: RequestContext, deps: HandlerDeps, target: (call: SubresourceCall) => Promise<{ url: string }>): Promise<void> {
  await admitConnect(ctx, deps);
  const { url } = await target(subresourceCall(ctx, deps));
  const upgrade = ctx.incoming?.upgrade;
  if (!upgrade) throw upgradeRequired();
  await relayUpgrade({ method: ctx.method, headers: ctx.headers, socket: upgrade.socket, head: upgrade.head }, url, deps.nodeClientTls);
}
