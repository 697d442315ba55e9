// Storage backends by name or URL scheme: the one table that maps `--storage-backend` (and,
// later, `--etcd-servers`) to an implementation. `sqlite` is the default. A backend is chosen
// by its name ("sqlite") or by the scheme of a URL ("sqlite:///var/lib/orch/state.db").

import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Logger } from '../api/log.ts';
import type { Storage } from './interface.ts';
import { openSqliteStorage } from './sqlite/store.ts';

export interface BackendOptions {
  /** where a file-based backend keeps its data when the spec names no location */
  dataDir: string;
  /** the etcd cluster (backend etcd3) */
  etcd?: EtcdFlags;
  log?: Logger;
}

export interface EtcdFlags {
  servers: string[];
  prefix?: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

export interface BackendEntry {
  name: string;
  /** URL schemes that select this backend */
  schemes: string[];
  /** `location` is what followed "scheme://" in the spec, or undefined for a bare name */
  open(opts: BackendOptions, location?: string): Promise<Storage>;
}

export const defaultBackend = 'sqlite';

const table: BackendEntry[] = [
  {
    name: 'sqlite',
    schemes: ['sqlite', 'file'],
    open: (opts, location) => {
      const path = !location ? join(opts.dataDir, 'orch.db') : isAbsolute(location) ? location : join(opts.dataDir, location);
      return openSqliteStorage({ path, log: opts.log });
    },
  },
  {
    name: 'etcd3',
    schemes: ['etcd', 'etcd3'],
    open: async (opts, location) => {
      const servers = opts.etcd?.servers.length ? opts.etcd.servers : location ? location.split(',').map(s => `http://${s}`) : [];
      if (!servers.length) throw new Error('the etcd3 storage backend needs --etcd-servers');
      const file = async (f?: string) => (f ? readFile(f) : undefined);
      const [ca, cert, key] = await Promise.all([file(opts.etcd?.caFile), file(opts.etcd?.certFile), file(opts.etcd?.keyFile)]);
      // loaded on demand: the etcd client and gRPC cost start-up time the embedded store never needs
      const { openEtcdStorage } = await import('./etcd/store.ts');
      return openEtcdStorage({ endpoints: servers, prefix: opts.etcd?.prefix, tls: ca || cert ? { ca, cert, key } : undefined, log: opts.log });
    },
  },
];

/** adds a backend (or replaces one of the same name) */
export function registerBackend(entry: BackendEntry): void {
  const i = table.findIndex(e => e.name === entry.name);
  if (i >= 0) table[i] = entry;
  else table.push(entry);
}

export function backendNames(): string[] {
  return table.map(e => e.name);
}

/** which backend a spec selects, and the location part of a URL spec */
export function resolveBackend(spec: string | undefined): { entry: BackendEntry; location?: string } {
  const s = spec?.trim() || defaultBackend;
  const byName = table.find(e => e.name === s);
  if (byName) return { entry: byName };
  const m = /^([a-z][a-z0-9+.-]*):(?:\/\/)?(.*)$/i.exec(s);
  const byScheme = m ? table.find(e => e.schemes.includes(m[1]!.toLowerCase())) : undefined;
  if (byScheme) return { entry: byScheme, location: m![2] || undefined };
  throw new Error(`unknown storage backend "${s}" (known: ${backendNames().join(', ')})`);
}

/** opens the backend a name or URL selects; an empty spec selects the default (sqlite) */
export function openStorage(kind: string | undefined, opts: BackendOptions): Promise<Storage> {
  const { entry, location } = resolveBackend(kind);
  return entry.open(opts, location);
}
