// What the resource handlers are given: the generic store and the catalog.

import type { Catalog } from '../../schema/types.ts';
import type { GenericStore } from '../../registry/store.ts';

export interface HandlerDeps {
  store: GenericStore;
  catalog: Catalog;
  now(): Date;
  /** server-chosen watch timeout when the client names none (seconds) */
  watchTimeoutSeconds(): number;
  /** how often a watch that asked for bookmarks gets one */
  bookmarkIntervalMs: number;
  /** client certificate for node agents (pods/log); absent: logs cannot be fetched */
  nodeClientTls?: { cert: string; key: string };
}
