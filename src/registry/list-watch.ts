// Reading many objects: paged lists at one consistent revision, and watches that turn the
// storage event stream into Kubernetes watch events.

import type { StatusError } from '../api/status.ts';
import { statusFromError } from './storage-errors.ts';
import { corruptDeleteEvent, isCorrupt, storeReadError } from './corrupt-object.ts';
import { apiVersionOf, type KubeList, type KubeObject } from '../api/object.ts';
import { prefixEnd, StorageError, type IndexHint, type KeyValue, type Storage, type WatchEvent, type Watcher } from '../storage/interface.ts';
import type { ResourceInfo } from '../schema/types.ts';
import { decodeFromStorage, decodeShared, jsonItems, planJsonItems, writeJsonItems, writeTemplates } from './stored-object.ts';
import { collectionPrefix } from './keys.ts';
import { readDefaults } from './apiextensions/read-defaults.ts';
import { goJson, goString } from '../codec/go-json.ts';

const listMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
import { decodeContinue, encodeContinue } from './continue-token.ts';
import { storedLabels } from './stored-labels.ts';
import { matchesLabels, type LabelSelector } from '../api/selectors/label.ts';
import { conversionFailed, type CustomResourceConverter } from './apiextensions/conversion/converter.ts';
import { valuesInVersion } from './apiextensions/conversion/stored-values.ts';

export interface ListOptions {
  limit?: number;
  continueToken?: string;
  /** read at exactly this revision (0: newest) */
  revision?: number;
  /** selector match; when set, remainingItemCount is not reported */
  filter?: (obj: KubeObject) => boolean;
  /**
   * The selector's labels: an object whose stored labels they rule out is skipped without a
   * decode (filter, when also set, still judges the others). A JSON list takes only this.
   */
  labels?: LabelSelector;
  /** narrow the read to one object (a metadata.name field selector) */
  name?: string;
  /** the selector pins an indexed field: storage may skip keys without that value */
  index?: IndexHint;
  /**
   * JSON lists: awaited between slices of `itemsPerSlice` items, so that the one thread
   * serves other requests between them (the API server's turns)
   */
  pause?: () => Promise<void>;
  /** JSON lists: where the answer's bytes are written (default: a new buffer) */
  alloc?: (size: number) => Buffer;
}

/** items a list assembles between two pauses: about two milliseconds' work */
export const itemsPerSlice = 1000;

/** a list read for the JSON fast path: its items as stored, to be written out without a parse (see listJson) */
export interface JsonList { list: KubeList; stored: KeyValue[] }

const pageReadSize = 500;

/**
 * `conv`: the converter of a custom resource's CRD; each storage page's values in another
 * version are converted together (one ConversionReview per page) before anything reads them
 */
export async function listObjects(storage: Storage, info: ResourceInfo, namespace: string | undefined, opts: ListOptions = {}, conv?: CustomResourceConverter): Promise<KubeList> {
  return (await readList(storage, info, namespace, opts, false, conv)).list;
}

/**
 * The list as JSON bytes, items spliced from storage without a parse and re-encode, and the
 * stored bytes copied once into the answer: the fast path for JSON lists, unfiltered or
 * selected by labels alone.
 */
export async function listJson(storage: Storage, info: ResourceInfo, namespace: string | undefined, opts: Omit<ListOptions, 'filter' | 'name'> = {}, conv?: CustomResourceConverter): Promise<Buffer> {
  const { list, stored } = await readList(storage, info, namespace, opts, true, conv);
  const open = `{"kind":${goString(list.kind)},"apiVersion":${goString(list.apiVersion)},"metadata":${goJson(list.metadata, listMeta)},"items":[`;
  const close = ']}\n';
  const onRead = readDefaults(info);
  try {
    // sized first (an item that must be decoded takes a turn's worth of work), then written
    const items = jsonItems(stored, list.apiVersion, info.kind, false, onRead);
    for (let i = 0, decoded = false; i < stored.length; i += itemsPerSlice) {
      if (decoded && opts.pause) await opts.pause();
      decoded = planJsonItems(items, i, Math.min(stored.length, i + itemsPerSlice));
    }
    const size = Buffer.byteLength(open) + items.size + close.length;
    // the answer, and after it a copy of the templates its packed items are copied from
    const out = (opts.alloc ?? Buffer.allocUnsafe)(size + items.templateBytes);
    writeTemplates(items, out, size);
    let at = out.write(open, 0);
    // the items are one snapshot, written a slice at a time into the one answer
    for (let i = 0; i < stored.length; i += itemsPerSlice) {
      if (i > 0 && opts.pause) await opts.pause();
      at = writeJsonItems(items, out, at, i, Math.min(stored.length, i + itemsPerSlice), size);
    }
    at += out.write(close, at);
    return at === out.length ? out : out.subarray(0, at);
  } catch (err) {
    if (!isCorrupt(err)) throw err;
    // name every corrupt item, not only the first the splice met
    const corrupt: StorageError[] = [];
    for (const kv of stored) {
      try { decodeFromStorage(kv, list.apiVersion); } catch (e) { if (isCorrupt(e)) corrupt.push(e); else throw e; }
    }
    throw storeReadError(qualifiedName(info), corrupt);
  }
}

function qualifiedName(info: ResourceInfo): string {
  return info.group ? `${info.resource}.${info.group}` : info.resource;
}

async function readList(storage: Storage, info: ResourceInfo, namespace: string | undefined, opts: ListOptions, asJson: boolean, conv?: CustomResourceConverter): Promise<JsonList> {
  const apiVersion = apiVersionOf(info.group, info.version);
  const onRead = readDefaults(info);
  const prefix = collectionPrefix(info, namespace);
  let start = prefix;
  let revision = opts.revision ?? 0;
  if (opts.continueToken) {
    const point = decodeContinue(opts.continueToken);
    start = point.start;
    revision = point.revision;
  }
  const end = prefixEnd(prefix);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
  const items: KubeObject[] = [];
  const stored: KeyValue[] = [];
  const byLabels = opts.labels && !opts.labels.empty ? opts.labels : undefined;
  const filtered = !!opts.filter || !!byLabels;
  const corrupt: StorageError[] = [];
  let count = 0;
  let served = 0;
  let nextStart: string | undefined;
  let remaining: number | undefined;
  try {
    for (;;) {
      const want = limit ? (filtered ? Math.max(limit - count, pageReadSize) : limit - count) : 0;
      const res = await storage.range(start, end, { revision, limit: want || undefined, index: opts.index });
      served = res.revision;
      revision = res.revision;
      let lastKey: string | undefined;
      for (const kv of conv ? await valuesInVersion(conv, res.kvs, apiVersion, { list: true, onRead }) : res.kvs) {
        lastKey = kv.key;
        // labels read from the stored bytes (a read hook might change them: those are decoded)
        const labels = byLabels && !onRead ? storedLabels(kv) : undefined;
        if (labels !== undefined && !matchesLabels(byLabels!, labels)) continue;
        if (asJson && (labels !== undefined || !byLabels)) {
          stored.push(kv);
        } else {
          let obj: KubeObject;
          try {
            obj = decodeFromStorage(kv, apiVersion, kv.modRevision, onRead);
          } catch (err) {
            if (!isCorrupt(err)) throw err;
            corrupt.push(err);
            continue;
          }
          if (opts.name !== undefined && obj.metadata.name !== opts.name) continue;
          if (opts.filter && !opts.filter(obj)) continue;
          if (byLabels && !matchesLabels(byLabels, obj.metadata.labels)) continue;
          if (asJson) stored.push(kv); else items.push(obj);
        }
        count++;
        if (limit && count === limit) break;
      }
      if (limit && count === limit && lastKey !== undefined) {
        const after = lastKey + '\x00';
        const more = lastKey !== res.kvs[res.kvs.length - 1]?.key || res.more;
        if (more) {
          nextStart = after;
          if (!filtered && opts.name === undefined) {
            const rest = await storage.range(after, end, { revision, limit: 1 });
            remaining = rest.count;
          }
        }
        break;
      }
      if (!res.more || lastKey === undefined) break;
      start = lastKey + '\x00';
    }
  } catch (err) {
    if (err instanceof StorageError) throw statusFromError(err, { revision, continued: !!opts.continueToken });
    throw err;
  }
  if (corrupt.length) throw storeReadError(qualifiedName(info), corrupt);
  const metadata: KubeList['metadata'] = { resourceVersion: String(served) };
  if (nextStart !== undefined) {
    metadata.continue = encodeContinue({ revision: served, start: nextStart });
    if (remaining !== undefined) metadata.remainingItemCount = remaining;
  }
  return { list: { apiVersion, kind: info.listKind, metadata, items }, stored };
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchSink {
  event(type: WatchEventType, object: KubeObject | Record<string, unknown>): void;
  /** the watch cannot go on (history compacted, backend gone) */
  end(err?: StatusError): void;
  /** the initial state (when asked for) has been sent, as of this revision */
  synced?(revision: number): void;
  /**
   * every change up to this revision has been sent (or did not match): the only revision a
   * bookmark may carry, since a client resumes from it. The store's current revision may be
   * ahead of what this watch has been sent yet.
   */
  progress?(revision: number): void;
}

export interface WatchOptions {
  /** events after this revision; undefined: send the current state as ADDED first */
  afterRevision?: number;
  filter?: (obj: KubeObject) => boolean;
  name?: string;
  index?: IndexHint;
}

/** `conv`: as for listObjects; each batch of events is converted together and delivered in order */
export async function watchObjects(storage: Storage, info: ResourceInfo, namespace: string | undefined, opts: WatchOptions, sink: WatchSink, conv?: CustomResourceConverter): Promise<Watcher> {
  const apiVersion = apiVersionOf(info.group, info.version);
  const onRead = readDefaults(info);
  const prefix = collectionPrefix(info, namespace);
  const matches = (o: KubeObject) => (opts.name === undefined || o.metadata.name === opts.name) && (!opts.filter || opts.filter(o));
  let after = opts.afterRevision;
  if (after === undefined) {
    const list = await listObjects(storage, info, namespace, { filter: opts.filter, name: opts.name, index: opts.index }, conv);
    for (const item of list.items) sink.event('ADDED', item);
    after = Number(list.metadata.resourceVersion);
    sink.synced?.(after);
  }
  let ended = false;
  const filtered = !!opts.filter || opts.name !== undefined;
  const deliver = (events: WatchEvent[]): void => {
    if (ended) return;
    for (const ev of events) {
      if (ev.type === 'delete') {
        if (!ev.prevKv) continue;
        let obj: KubeObject;
        try {
          obj = decodeShared(ev.prevKv, apiVersion, ev.kv.modRevision, onRead);
        } catch (err) {
          if (!isCorrupt(err)) throw err;
          // an unsafe delete of a corrupt object: the watcher cannot be told what went, so
          // its watch ends and its client lists again (as a reflector does on StoreReadError)
          ended = true;
          sink.end(corruptDeleteEvent(err));
          return;
        }
        if (matches(obj)) sink.event('DELETED', obj);
        continue;
      }
      const obj = decodeShared(ev.kv, apiVersion, ev.kv.modRevision, onRead);
      const now = matches(obj);
      const before = ev.prevKv ? (opts.filter || opts.name !== undefined ? matches(decodeShared(ev.prevKv, apiVersion, ev.prevKv.modRevision, onRead)) : true) : false;
      if (now && !before) sink.event('ADDED', obj);
      else if (now) sink.event('MODIFIED', obj);
      else if (before) sink.event('DELETED', obj);
    }
  };
  const progressed = (revision: number) => { if (!ended) sink.progress?.(revision); };
  // a batch being converted: progress reported meanwhile waits for it, so it never overtakes it
  let converting: Promise<void> = Promise.resolve();
  const watcher = await storage.watch(prefix, {
    afterRevision: after,
    index: opts.index,
    onEvents(events) {
      const newest = events[events.length - 1]?.kv.modRevision ?? 0;
      if (!conv || ended) { deliver(events); return progressed(newest); }
      // the values read below (the previous one only where a selector looks at it) in this
      // watch's version; the returned promise holds the next batch back until this one is out
      const wanted = events.flatMap(ev => (ev.type === 'delete' ? (ev.prevKv ? [ev.prevKv] : []) : ev.prevKv && filtered ? [ev.kv, ev.prevKv] : [ev.kv]));
      converting = valuesInVersion(conv, wanted, apiVersion, { shared: true, onRead }).then(values => {
        const served = new Map(wanted.map((kv, i) => [kv, values[i]!]));
        deliver(events.map(ev => ({ ...ev, kv: served.get(ev.kv) ?? ev.kv, ...(ev.prevKv ? { prevKv: served.get(ev.prevKv) ?? ev.prevKv } : {}) })));
        progressed(newest);
      }, err => {
        if (ended) return;
        ended = true;
        sink.end(conversionFailed(err));
      });
      return converting;
    },
    ...(sink.progress ? { onProgress: (revision: number) => { void converting.then(() => progressed(revision)); } } : {}),
    onError(err) {
      sink.end(statusFromError(err, { revision: after }));
    },
  });
  if (!conv) return watcher;
  // a batch still converting when the watch is cancelled is not delivered
  return {
    cancel() { ended = true; watcher.cancel(); },
    ...(watcher.requestProgress ? { requestProgress: () => watcher.requestProgress!() } : {}),
  };
}
