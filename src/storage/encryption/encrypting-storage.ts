// Encryption at rest as a layer over a backend: values of the resources the configuration names
// are transformed on the way in and back on the way out (reads, lists, watch events, the
// current value a failed CAS carries). Keys stay readable, as in Kubernetes. A value no
// transformer can read comes out as an unreadable marker (../unreadable-value.ts), so that
// object alone is reported corrupt. The configuration can be swapped at run time (automatic
// reload); values written before keep reading as long as their key is still configured.

import { StorageError, type KeyValue, type RangeOptions, type RangeResult, type Storage, type WatchEvent, type WatchOptions, type Watcher } from '../interface.ts';
import { unreadableValue } from '../unreadable-value.ts';
import type { Transformers, ValueTransformer } from './transformers.ts';

/** where the registry keeps objects (registry/keys.ts, which this layer may not import) */
const registryPrefix = '/registry/';

/** the group and resource a registry key belongs to: /registry/<resource>[.<group>]/… */
export function resourceOfKey(key: string): { group: string; resource: string } | undefined {
  if (!key.startsWith(registryPrefix)) return undefined;
  const segment = key.slice(registryPrefix.length).split('/', 1)[0]!;
  const dot = segment.indexOf('.');
  return dot < 0 ? { group: '', resource: segment } : { group: segment.slice(dot + 1), resource: segment.slice(0, dot) };
}

export interface EncryptingStorage extends Storage {
  /** the configuration in use from now on (automatic reload); the old one is closed */
  setTransformers(t: Transformers): void;
  /** true when the stored value of `key` was written with anything but the current write provider */
  isStale(key: string): Promise<boolean>;
}

export function encryptingStorage(backend: Storage, initial: Transformers): EncryptingStorage {
  let transformers = initial;
  const forKey = (key: string): ValueTransformer | undefined => {
    const r = resourceOfKey(key);
    return r ? transformers.forResource(r.group, r.resource) : undefined;
  };
  const read = async (kv: KeyValue): Promise<{ kv: KeyValue; stale: boolean }> => {
    const t = forKey(kv.key);
    if (!t || kv.value.length === 0) return { kv, stale: false };
    try {
      const { data, stale } = await t.fromStorage(kv.value, kv.key);
      return { kv: { ...kv, value: data }, stale };
    } catch (err) {
      return { kv: { ...kv, value: unreadableValue(`unable to transform key ${JSON.stringify(kv.key)}: ${(err as Error).message}`) }, stale: false };
    }
  };
  const out = async (kv: KeyValue) => (await read(kv)).kv;
  const write = async (key: string, value: Uint8Array) => {
    const t = forKey(key);
    return t ? t.toStorage(value, key) : value;
  };
  // a CAS failure carries the current value, which callers decode
  const rethrow = async (err: unknown): Promise<never> => {
    if (err instanceof StorageError && err.current) err.current = await out(err.current);
    throw err;
  };
  const withPlain = (kv: KeyValue, value: Uint8Array): KeyValue => ({ ...kv, value });

  return {
    currentRevision: () => backend.currentRevision(),
    compactedRevision: () => backend.compactedRevision(),
    ...(backend.waitForRevision ? { waitForRevision: (r: number, ms: number) => backend.waitForRevision!(r, ms) } : {}),
    async get(key, opts) {
      const r = await backend.get(key, opts);
      return r.kv ? { ...r, kv: await out(r.kv) } : r;
    },
    async range(start: string, end: string, opts?: RangeOptions): Promise<RangeResult> {
      const r = await backend.range(start, end, opts);
      return { ...r, kvs: await Promise.all(r.kvs.map(out)) };
    },
    async create(key, value) {
      const kv = await backend.create(key, await write(key, value)).catch(rethrow);
      return withPlain(kv, value);
    },
    async update(key, value, expected) {
      const kv = await backend.update(key, await write(key, value), expected).catch(rethrow);
      return withPlain(kv, value);
    },
    async delete(key, expected) {
      const r = await backend.delete(key, expected).catch(rethrow);
      return { ...r, prevKv: await out(r.prevKv) };
    },
    watch(prefix: string, opts: WatchOptions): Watcher {
      // events are decrypted in order: a batch waits for the one before it
      let chain: Promise<void> = Promise.resolve();
      return backend.watch(prefix, {
        ...opts,
        onEvents(events: WatchEvent[]) {
          const decoded = Promise.all(events.map(async e => ({
            ...e,
            kv: e.type === 'delete' ? e.kv : await out(e.kv),
            ...(e.prevKv ? { prevKv: await out(e.prevKv) } : {}),
          })));
          chain = chain.then(async () => { await opts.onEvents(await decoded); });
          return chain;
        },
        onError: err => { void chain.then(() => opts.onError(err)); },
        ...(opts.onProgress ? { onProgress: (rev: number) => { void chain.then(() => opts.onProgress!(rev)); } } : {}),
      });
    },
    compact: rev => backend.compact(rev),
    healthy: () => backend.healthy(),
    async close() {
      transformers.close();
      await backend.close();
    },
    setTransformers(t) {
      const old = transformers;
      transformers = t;
      old.close();
    },
    async isStale(key) {
      const { kv } = await backend.get(key);
      return kv ? (await read(kv)).stale : false;
    },
  } as EncryptingStorage;
}
