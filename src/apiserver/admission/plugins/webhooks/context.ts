// What both webhook plugins read besides the request: the configurations, namespaces' labels,
// the authorizer for matchConditions' `authorizer`, where a service's webhook answers.

import type { Logger } from '../../../../api/log.ts';
import type { Registry } from '../../../../registry/registry.ts';
import type { Catalog } from '../../../../schema/types.ts';
import type { Authorizer } from '../../../authz/attributes.ts';
import type { AdmissionAttributes } from '../../types.ts';
import { requestFor, versioned, type CallDeps } from './call.ts';
import type { Invocation, MatchContext } from './invocation.ts';
import { endpointSliceResolver, type ServiceResolver } from './service-resolver.ts';
import { isExemptFromWebhooks } from './rules.ts';
import { celAuthorizer } from '../cel-authorizer.ts';

export interface WebhookPluginDeps {
  registry: Registry;
  catalog: Catalog;
  log: Logger;
  /** answers `authorizer` checks in matchConditions */
  authorizer?: Authorizer;
  /** where a `service` clientConfig is dialled; default: a ready endpoint of its EndpointSlices */
  resolveService?: ServiceResolver;
  /** the AdmissionRequest uid; default: a random UUID */
  uid?: () => string;
}

export function callDeps(deps: WebhookPluginDeps): CallDeps {
  return { resolveService: deps.resolveService ?? endpointSliceResolver(deps.registry, deps.catalog), uid: deps.uid };
}

export function matchContext(deps: WebhookPluginDeps, a: AdmissionAttributes): MatchContext {
  const namespaces = deps.catalog.lookup('', 'v1', 'namespaces')!;
  return {
    catalog: deps.catalog,
    async namespaceLabels(name) {
      const ns = await deps.registry.get(namespaces, undefined, name, undefined, true);
      return ns.metadata.labels;
    },
    variables(inv: Invocation) {
      const { object: _o, oldObject: _old, ...request } = requestFor(a, inv, '');
      return {
        object: versioned(a.object, inv) ?? null,
        oldObject: versioned(a.oldObject, inv) ?? null,
        request,
        authorizer: celAuthorizer(deps.authorizer, a.user),
        requestResource: { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: a.namespace, name: a.name },
      };
    },
  };
}

/** whether the request may go to webhooks at all */
export function webhooksApply(a: AdmissionAttributes): boolean {
  return !isExemptFromWebhooks(a.resource.group, a.resource.resource);
}
