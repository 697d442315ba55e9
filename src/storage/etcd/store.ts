// The etcd backend: the storage contract on etcd's own API (v3, gRPC through the etcd3 client).
// Revisions are etcd's revisions, so a resourceVersion is an object's mod_revision as in
// Kubernetes; creates and updates are transactions comparing the key's revision; reads are
// linearizable (a quorum read) unless they ask for a past revision.

import { noop } from 'cockatiel';
import { Etcd3, type ICompare, type IOptions, type IRequestOp, type ITxnResponse } from 'etcd3';
import type { Logger } from '../../api/log.ts';
import {
  StorageError, type KeyValue, type RangeOptions, type RangeResult, type Storage, type WatchEvent, type WatchOptions, type Watcher,
} from '../interface.ts';
import { toStorageError } from './errors.ts';
import { checkValueSize } from '../value-limit.ts';
import { KeyMapper } from './keys.ts';

export interface EtcdOptions {
  endpoints: string[];
  /** key prefix in etcd (default /registry) */
  prefix?: string;
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** per-request deadline */
  requestTimeoutMs?: number;
  log?: Logger;
}

interface RawKv { key: Buffer; value: Buffer; create_revision: string; mod_revision: string }

export class EtcdStorage implements Storage {
  private client: Etcd3;
  private keys: KeyMapper;
  private log?: Logger;
  private compacted = 0;
  private closed = false;
  /** etcd watchers still open (or being opened), closed with the client */
  private open = new Set<{ cancel(): Promise<void> }>();
  private opening = new Set<Promise<unknown>>();

  constructor(opts: EtcdOptions) {
    this.keys = new KeyMapper(opts.prefix ?? '/registry');
    this.log = opts.log;
    const timeout = opts.requestTimeoutMs ?? 5000;
    const options: IOptions = {
      hosts: opts.endpoints,
      dialTimeout: 2000,
      // a stream (watch) has no deadline; a request answers within the timeout or fails
      defaultCallOptions: ctx => (ctx.isStream ? {} : { deadline: Date.now() + timeout }),
      // no circuit breaker per member (the client's default opens one for 5 s after three
      // timeouts, refusing every request even once etcd answers again); as etcd's Go client, a
      // failed call is tried again (the client's global retry) on a member picked afresh
      faultHandling: { host: () => noop },
    };
    if (opts.tls) options.credentials = { rootCertificate: opts.tls.ca ?? Buffer.alloc(0), certChain: opts.tls.cert, privateKey: opts.tls.key };
    this.client = new Etcd3(options);
  }

  private kv(raw: RawKv): KeyValue {
    return { key: this.keys.fromEtcd(raw.key), value: new Uint8Array(raw.value), createRevision: Number(raw.create_revision), modRevision: Number(raw.mod_revision) };
  }

  private fail(err: unknown): StorageError {
    const e = toStorageError(err, () => this.compacted);
    if (e.code === 'compacted') void this.compactedRevision().catch(() => {});
    return e;
  }

  async currentRevision(): Promise<number> {
    try {
      const res = await this.client.kv.range({ key: this.keys.compactionKey, count_only: true });
      return Number(res.header.revision);
    } catch (err) {
      throw this.fail(err);
    }
  }

  async compactedRevision(): Promise<number> {
    try {
      const res = await this.client.kv.range({ key: this.keys.compactionKey });
      const recorded = res.kvs[0] ? Number(res.kvs[0].value.toString()) : 0;
      this.compacted = Math.max(this.compacted, recorded);
      return this.compacted;
    } catch (err) {
      throw this.fail(err);
    }
  }

  async get(key: string, opts?: { revision?: number }): Promise<{ kv?: KeyValue; revision: number }> {
    try {
      const res = await this.client.kv.range({ key: this.keys.toEtcd(key), revision: opts?.revision || undefined });
      return { kv: res.kvs[0] ? this.kv(res.kvs[0]) : undefined, revision: opts?.revision || Number(res.header.revision) };
    } catch (err) {
      throw this.fail(err);
    }
  }

  async range(start: string, end: string, opts: RangeOptions = {}): Promise<RangeResult> {
    try {
      const res = await this.client.kv.range({
        key: this.keys.toEtcd(start), range_end: this.keys.toEtcd(end),
        revision: opts.revision || undefined, limit: opts.limit && opts.limit > 0 ? opts.limit : undefined,
      });
      return { kvs: res.kvs.map(kv => this.kv(kv)), revision: opts.revision || Number(res.header.revision), more: res.more, count: Number(res.count) };
    } catch (err) {
      throw this.fail(err);
    }
  }

  async create(key: string, value: Uint8Array): Promise<KeyValue> {
    // refused here as the SQLite backend refuses it, whatever this etcd's --max-request-bytes
    checkValueSize(key, value);
    const k = this.keys.toEtcd(key);
    let res;
    try {
      res = await this.client.kv.txn({
        compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key: k, value: Buffer.from(value) } }],
        failure: [{ request_range: { key: k } }],
      });
    } catch (err) {
      throw this.fail(err);
    }
    if (!res.succeeded) {
      const current = res.responses[0]?.response_range.kvs[0];
      throw new StorageError('key-exists', `key exists: ${key}`, { current: current ? this.kv(current) : undefined });
    }
    const rev = Number(res.header.revision);
    return { key, value, createRevision: rev, modRevision: rev };
  }

  /**
   * One write made conditional by `compare`; when the condition fails the key is read in the same
   * transaction, so the failure says whether the key is gone or changed (with its current value).
   */
  private async conditional(key: string, compare: ICompare, op: IRequestOp): Promise<ITxnResponse> {
    const k = this.keys.toEtcd(key);
    let res;
    try {
      res = await this.client.kv.txn({ compare: [{ ...compare, key: k }], success: [op], failure: [{ request_range: { key: k } }] });
    } catch (err) {
      throw this.fail(err);
    }
    if (!res.succeeded) {
      const current = res.responses[0]?.response_range.kvs[0];
      if (!current) throw new StorageError('not-found', `key not found: ${key}`);
      throw new StorageError('conflict', `revision mismatch for ${key}`, { current: this.kv(current) });
    }
    return res;
  }

  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<KeyValue> {
    checkValueSize(key, value);
    const res = await this.conditional(key, { target: 'Mod', result: 'Equal', mod_revision: expectedModRevision },
      { request_put: { key: this.keys.toEtcd(key), value: Buffer.from(value), prev_kv: true } });
    const prev = res.responses[0]?.response_put.prev_kv;
    const rev = Number(res.header.revision);
    return { key, value, createRevision: prev ? Number(prev.create_revision) : rev, modRevision: rev };
  }

  async delete(key: string, expectedModRevision?: number): Promise<{ prevKv: KeyValue; revision: number }> {
    const res = await this.conditional(key,
      expectedModRevision === undefined
        ? { target: 'Create', result: 'Greater', create_revision: 0 }
        : { target: 'Mod', result: 'Equal', mod_revision: expectedModRevision },
      { request_delete_range: { key: this.keys.toEtcd(key), prev_kv: true } });
    const prev = res.responses[0]?.response_delete_range.prev_kvs[0];
    if (!prev) throw new StorageError('not-found', `key not found: ${key}`);
    return { prevKv: this.kv(prev), revision: Number(res.header.revision) };
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    let cancelled = false;
    let last = opts.afterRevision;
    const own = this.keys.toEtcd(prefix);
    // a watch of everything orch has also watches the rest of the etcd: writes there move the
    // revision too, and reporting them as progress lets consistent reads know they saw it all
    const everything = prefix === '/';
    const builder = this.client.watch().startRevision(String(opts.afterRevision + 1)).withPreviousKV();
    const pending = (everything ? builder.inRange({ start: Buffer.from([0]), end: Buffer.from([0]) }) : builder.prefix(own)).create();
    // etcd has already dropped a watch it cancelled: cancelling it again would make the client
    // receive an answer for a watch it no longer knows, which it does not survive
    const end = (err: StorageError) => {
      if (cancelled) return;
      cancelled = true;
      opts.onError(err);
    };
    const failed = (err: unknown) => {
      if (cancelled) return;
      const message = err instanceof Error ? err.message : String(err);
      if (/compacted|canceled/i.test(message)) {
        // etcd cancels a watch whose start was compacted away; the client drops the revision it
        // names, so the compaction record says whether that was the reason
        void this.compactedRevision().catch(() => this.compacted).then(rev => end(rev > last + 1 || /compacted/.test(message)
          ? new StorageError('compacted', 'required revision has been compacted', { revision: rev })
          : new StorageError('unavailable', `etcd ended the watch: ${message}`)));
        return;
      }
      // anything else is the connection: the client reconnects and resumes after the last event
      this.log?.debug('etcd watch interrupted; resuming', { err: message });
    };
    this.opening.add(pending);
    void pending.catch(() => {}).finally(() => this.opening.delete(pending));
    pending.then(w => {
      if (cancelled) { void w.cancel().catch(() => {}); return; }
      this.open.add(w);
      w.on('end', () => this.open.delete(w));
      w.on('data', res => {
        if (cancelled) return;
        const events: WatchEvent[] = [];
        let newest = Number(res.header.revision);
        for (const ev of res.events) {
          const rev = Number(ev.kv.mod_revision);
          // after a reconnect the client resumes where it was; never deliver an event twice
          if (rev <= last) continue;
          if (everything && !ev.kv.key.subarray(0, own.length).equals(own)) { newest = Math.max(newest, rev); continue; }
          const prevKv = ev.prev_kv ? this.kv(ev.prev_kv) : undefined;
          if (ev.type === 'Delete') {
            const key = this.keys.fromEtcd(ev.kv.key);
            events.push({ type: 'delete', kv: { key, value: new Uint8Array(0), createRevision: prevKv?.createRevision ?? 0, modRevision: rev }, prevKv });
          } else {
            events.push({ type: 'put', kv: this.kv(ev.kv), prevKv });
          }
        }
        if (events.length) {
          last = events[events.length - 1]!.kv.modRevision;
          opts.onEvents(events);
        }
        // nothing under the prefix up to this revision was missed
        if (opts.onProgress && newest > last && (events.length === 0 || everything)) {
          last = newest;
          opts.onProgress(newest);
        }
      });
      w.on('error', failed);
    }).catch(failed);
    return {
      cancel: () => {
        if (cancelled) return;
        cancelled = true;
        void pending.then(w => { this.open.delete(w); return w.cancel(); }).catch(() => {});
      },
    };
  }

  async compact(revision: number): Promise<void> {
    if (revision <= this.compacted) return;
    try {
      await this.client.kv.compact({ revision, physical: false });
    } catch (err) {
      const e = this.fail(err);
      if (e.code !== 'compacted') throw e;
    }
    this.compacted = Math.max(this.compacted, revision);
    try {
      // every server sharing this etcd reads the compacted revision from here
      await this.client.kv.put({ key: this.keys.compactionKey, value: Buffer.from(String(this.compacted)) });
    } catch (err) {
      throw this.fail(err);
    }
  }

  async healthy(): Promise<boolean> {
    try {
      await this.client.kv.range({ key: this.keys.compactionKey, count_only: true }, { deadline: Date.now() + 2000 });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // watches still being set up are let finish, so that they can be cancelled too
    await Promise.race([Promise.allSettled([...this.opening]), new Promise(r => setTimeout(r, 1000))]);
    await new Promise(r => setImmediate(r));
    const watchers = [...this.open];
    this.open.clear();
    await Promise.race([Promise.allSettled(watchers.map(w => w.cancel())), new Promise(r => setTimeout(r, 1000))]);
    this.client.close();
  }
}

export function openEtcdStorage(opts: EtcdOptions): Promise<Storage> {
  return Promise.resolve(new EtcdStorage(opts));
}
