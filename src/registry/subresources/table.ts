// Every subresource the server implements, registered once. Adding one is one module and one
// line here; the router, the handlers, discovery and OpenAPI read this table and nothing else.

import type { ResourceInfo } from '../../schema/types.ts';
import type { Subresource } from './subresource.ts';
import { statusSubresource } from './status.ts';
import { scaleSubresource } from './scale.ts';
import { finalizeSubresource } from './finalize.ts';
import { bindingSubresource } from './binding.ts';
import { logSubresource } from './log.ts';
import { resizeSubresource } from './resize.ts';
import { execSubresource } from './exec.ts';
import { attachSubresource } from './attach.ts';
import { portForwardSubresource } from './portforward.ts';
import { ephemeralContainersSubresource } from './ephemeral-containers.ts';
import { evictionSubresource } from './eviction.ts';
import { proxySubresource } from './proxy.ts';
import { tokenSubresource } from './token-request.ts';
import { approvalSubresource } from './approval.ts';

const registered = new Map<string, Subresource>();

/** adds a subresource to the table (a name registered twice is a programming error) */
export function registerSubresource(sub: Subresource): void {
  if (registered.has(sub.name)) throw new Error(`subresource ${sub.name} is registered twice`);
  registered.set(sub.name, sub);
}

registerSubresource(statusSubresource);
registerSubresource(scaleSubresource);
registerSubresource(finalizeSubresource);
registerSubresource(bindingSubresource);
registerSubresource(logSubresource);
registerSubresource(resizeSubresource);
registerSubresource(execSubresource);
registerSubresource(attachSubresource);
registerSubresource(portForwardSubresource);
registerSubresource(ephemeralContainersSubresource);
registerSubresource(evictionSubresource);
registerSubresource(proxySubresource);
registerSubresource(tokenSubresource);
registerSubresource(approvalSubresource);

function servedOn(sub: Subresource, info: ResourceInfo): boolean {
  return sub.servedFor ? sub.servedFor(info) : info.subresources.some(s => s.name === sub.name);
}

/** the subresource `name` of `info`, when this server implements it there */
export function subresourceOf(info: ResourceInfo, name: string): Subresource | undefined {
  const sub = registered.get(name);
  return sub && servedOn(sub, info) ? sub : undefined;
}

/** the subresource registered as `name`, whichever resource it is on */
export function subresourceNamed(name: string): Subresource | undefined {
  return registered.get(name);
}

/** every implemented subresource of `info`, by name */
export function subresourcesOf(info: ResourceInfo): Subresource[] {
  return [...registered.values()].filter(s => servedOn(s, info)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
