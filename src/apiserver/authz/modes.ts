// `--authorization-mode` turned into the server's chain: RBAC (its defaults reconciled and its
// index read before the server takes requests), AlwaysAllow, AlwaysDeny.

import type { Logger } from '../../api/log.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import type { Authorizer } from './attributes.ts';
import type { RequestAuthorization } from './authorize-request.ts';
import { alwaysAllow, alwaysDeny, createChain, parseAuthorizationModes } from './chain.ts';
import { createNodeAuthorizer } from './node.ts';
import { createRbacAuthorizer, type RbacAuthorizer } from './rbac.ts';
import { reconcileDefaultPolicy } from './reconcile-defaults.ts';

export interface AuthorizationSetup {
  modes: string;
  anonymous: boolean;
  registry: Registry;
  catalog: Catalog;
  log: Logger;
}

export async function buildAuthorization(cfg: AuthorizationSetup): Promise<{ authorization: RequestAuthorization; stop(): void }> {
  const modes = parseAuthorizationModes(cfg.modes);
  let rbac: RbacAuthorizer | undefined;
  const members: Authorizer[] = [];
  const stops: Array<() => void> = [];
  for (const mode of modes) {
    switch (mode) {
      case 'AlwaysAllow': members.push(alwaysAllow); break;
      case 'AlwaysDeny': members.push(alwaysDeny); break;
      case 'RBAC':
        await reconcileDefaultPolicy(cfg.registry, cfg.catalog);
        rbac = createRbacAuthorizer(cfg.registry, cfg.catalog, cfg.log);
        await rbac.synced;
        members.push(rbac);
        break;
      case 'Node': {
        const n = createNodeAuthorizer(cfg.registry, cfg.catalog, cfg.log);
        await n.synced;
        stops.push(() => n.stop());
        members.push(n);
        break;
      }
    }
  }
  return {
    authorization: { authorizer: createChain(members), anonymous: cfg.anonymous, rbac: rbac?.index },
    stop() { rbac?.stop(); for (const s of stops) s(); },
  };
}
