// Storage backends by name: the one place that maps `--storage-backend` to an implementation.

import { join } from 'node:path';
import type { Logger } from '../api/log.ts';
import type { Storage } from './interface.ts';
import { openSqliteStorage } from './sqlite/store.ts';

export interface BackendOptions {
  dataDir: string;
  log?: Logger;
}

type Opener = (opts: BackendOptions) => Promise<Storage>;

const backends: Record<string, Opener> = {
  sqlite: opts => openSqliteStorage({ path: join(opts.dataDir, 'orch.db'), log: opts.log }),
};

export function backendNames(): string[] {
  return Object.keys(backends);
}

export function openStorage(name: string, opts: BackendOptions): Promise<Storage> {
  const open = backends[name];
  if (!open) throw new Error(`unknown storage backend "${name}" (known: ${backendNames().join(', ')})`);
  return open(opts);
}
