// The service account controller: a `default` ServiceAccount in every active namespace,
// created again when deleted, which pods without serviceAccountName run as.

import type { Logger } from '../../api/log.ts';
import type { Client } from '../../client/rest.ts';
import type { InformerFactory } from '../informer-factory.ts';
import { startPerNamespaceController } from './per-namespace.ts';

export function startServiceAccountController(client: Client, log: Logger, informers: InformerFactory): { stop(): void } {
  return startPerNamespaceController(client, log, informers, {
    resource: 'serviceaccounts',
    name: 'default',
    fresh: () => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }),
  });
}
