// A generic store over SQLite and the watch cache in a temporary directory, in this process,
// with a fixed clock and predictable uids, for tests of the registry and the handlers above it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GenericStore, type StoreDeps } from '../../../src/registry/store.ts';
import { strategyFor } from '../../../src/registry/strategies.ts';
import { createCatalog } from '../../../src/schema/catalog.ts';
import { extensibleCatalog, type ExtensibleCatalog } from '../../../src/schema/extensible-catalog.ts';
import type { ResourceInfo } from '../../../src/schema/types.ts';
import { createCacher } from '../../../src/storage/cacher/cacher.ts';
import { openSqliteStorage } from '../../../src/storage/sqlite/store.ts';
import type { Storage } from '../../../src/storage/interface.ts';

export interface TestRegistry {
  store: GenericStore;
  storage: Storage;
  /** the built-in catalog, which custom resources can join (as in the API server) */
  catalog: ExtensibleCatalog;
  /** the served resource by group and plural (its preferred version) */
  info(group: string, resource: string): ResourceInfo;
  clock: { now(): Date; set(iso: string): void };
  close(): Promise<void>;
}

export async function testRegistry(extra: Partial<StoreDeps> = {}): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-registry-'));
  const storage = createCacher(await openSqliteStorage({ path: join(dir, 'db.sqlite') }), { freshWaitMs: 200 });
  const catalog = extensibleCatalog(createCatalog());
  let uid = 0;
  let now = new Date('2026-01-02T03:04:05Z');
  const clock = { now: () => now, set: (iso: string) => { now = new Date(iso); } };
  const store = new GenericStore({ storage, strategyFor, clock, uid: () => `uid-${++uid}`, random: () => 0.5, ...extra });
  return {
    store, storage, catalog, clock,
    info(group, resource) {
      const version = group ? catalog.groups().find(g => g.name === group)!.preferredVersion : 'v1';
      return catalog.lookup(group, version, resource)!;
    },
    async close() {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
