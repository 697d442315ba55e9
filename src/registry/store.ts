// The generic store: one pipeline for every resource. It fills server-owned metadata,
// asks the resource's strategy for defaults and validation, and turns storage outcomes
// into Kubernetes Status errors. Handlers talk to this, never to storage directly.

import { randomUUID } from 'node:crypto';
import { alreadyExists, badRequest, conflict, invalid, notFound, StatusError, type FieldError } from '../api/status.ts';
import { statusFromError, tooLargeResourceVersion, uidPreconditionFailed } from './storage-errors.ts';
import { generateName, validateName } from '../api/names.ts';
import { apiVersionOf, deepClone, jsonEqual, type KubeObject } from '../api/object.ts';
import { StorageError, type KeyValue, type Storage } from '../storage/interface.ts';
import type { ResourceInfo } from '../schema/types.ts';
import type { Strategy, StrategyContext } from './strategy.ts';
import type { DeleteOptions, DeleteResult, Registry, WriteOptions } from './registry.ts';
import { subresourceNamed } from './subresources/table.ts';
import { hasStatusSubresource } from './subresources/status.ts';
import { decodeFromStorage, encodeForStorage, jsonFromStorage } from './stored-object.ts';
import { isCorrupt } from './corrupt-object.ts';
import { readDefaults } from './apiextensions/read-defaults.ts';
import { immutableField } from './validation/immutable.ts';
import { objectKey } from './keys.ts';
import { validateMetadata } from './validation/metadata.ts';
import { recordUpdate } from '../apply/index.ts';
import { managerContext } from './field-managers.ts';
import { listJson, listObjects, watchObjects, type ListOptions, type WatchOptions, type WatchSink } from './list-watch.ts';
import type { KubeList } from '../api/object.ts';
import type { Watcher } from '../storage/interface.ts';
import { rfc3339 } from '../api/time.ts';
import { defaultGarbageCollectionPolicy, deletionFinalizers } from './gc-policy.ts';
import type { CustomResourceConverter } from './apiextensions/conversion/converter.ts';
import { objectInVersion, valuesInVersion } from './apiextensions/conversion/stored-values.ts';

export type { DeleteOptions, DeleteResult, WriteOptions } from './registry.ts';

export interface Clock { now(): Date }

export interface StoreDeps {
  storage: Storage;
  strategyFor(info: ResourceInfo): Strategy;
  clock?: Clock;
  random?: () => number;
  uid?: () => string;
  listOther?: (group: string, resource: string) => Promise<KubeObject[]>;
  /**
   * the converter of a custom resource's CRD (absent: objects are stored in the version written
   * and read through convertObject). With one, every value stored in another version than the
   * one read is converted first, and writes are stored in the storage version and read back.
   */
  converterFor?: (info: ResourceInfo) => CustomResourceConverter | undefined;
  /**
   * true when the stored value of a key was written under an encryption key that is no longer
   * the write key: an update that changes nothing still rewrites it (rotation by replace)
   */
  isStale?: (key: string) => Promise<boolean>;
}

const generateNameAttempts = 8;

/** how long a read waits for a resourceVersion the server has not reached yet */
export const futureRevisionWaitMs = 3000;

export class GenericStore implements Registry {
  private deps: StoreDeps;
  private clock: Clock;
  private random: () => number;
  private uid: () => string;

  constructor(deps: StoreDeps) {
    this.deps = deps;
    this.clock = deps.clock ?? { now: () => new Date() };
    this.random = deps.random ?? Math.random;
    this.uid = deps.uid ?? randomUUID;
  }

  private strategy(info: ResourceInfo): Strategy { return this.deps.strategyFor(info); }

  private converter(info: ResourceInfo): CustomResourceConverter | undefined { return this.deps.converterFor?.(info); }

  /** a stored value as a value of the version `info` serves (see converterFor) */
  private async served(info: ResourceInfo, kv: KeyValue): Promise<KeyValue> {
    const conv = this.converter(info);
    return conv ? (await valuesInVersion(conv, [kv], apiVersionOf(info.group, info.version), { onRead: readDefaults(info) }))[0]! : kv;
  }

  /**
   * Writes `obj` through `put` in the storage version, and answers what was written in the
   * version asked for, with its resourceVersion: kube-apiserver encodes a custom resource to its
   * storage version and decodes the written bytes back, converting both ways.
   */
  private async written(info: ResourceInfo, obj: KubeObject, put: (value: Uint8Array) => Promise<KeyValue>): Promise<KubeObject> {
    const conv = this.converter(info);
    const stored = conv ? await objectInVersion(conv, obj, apiVersionOf(info.group, info.storageVersion)) : obj;
    const kv = await put(encodeForStorage(stored));
    const out = stored === obj ? obj : await objectInVersion(conv!, stored, apiVersionOf(info.group, info.version));
    out.metadata.resourceVersion = String(kv.modRevision);
    return out;
  }

  /** a stored object as its reads (and the updates starting from it) see it */
  private decode(info: ResourceInfo, kv: KeyValue, rv = kv.modRevision): KubeObject {
    return decodeFromStorage(kv, apiVersionOf(info.group, info.version), rv, readDefaults(info));
  }

  returnsDeletedObject(info: ResourceInfo): boolean { return this.strategy(info).returnDeletedObject; }

  currentRevision(): Promise<number> { return this.deps.storage.currentRevision(); }

  async awaitRevision(rv: number, waitMs = futureRevisionWaitMs): Promise<void> {
    const storage = this.deps.storage;
    const reached = storage.waitForRevision ? await storage.waitForRevision(rv, waitMs) : (await storage.currentRevision()) >= rv;
    if (!reached) throw tooLargeResourceVersion(rv, await storage.currentRevision());
  }

  private ctx(info: ResourceInfo, opts?: WriteOptions): StrategyContext {
    return { info, now: this.clock.now(), random: this.random, listOther: this.deps.listOther, ...(opts?.user ? { user: opts.user } : {}), ...(opts?.warn ? { warn: opts.warn } : {}) };
  }

  async get(info: ResourceInfo, namespace: string | undefined, name: string, revision?: number, allowStale = false): Promise<KubeObject> {
    const { kv } = await this.deps.storage.get(objectKey(info, namespace, name), revision ? { revision } : allowStale ? { allowStale } : undefined);
    if (!kv) throw notFound(info, name);
    return this.decode(info, await this.served(info, kv));
  }

  list(info: ResourceInfo, namespace: string | undefined, opts: ListOptions = {}): Promise<KubeList> {
    return listObjects(this.deps.storage, info, namespace, opts, this.converter(info));
  }

  listJson(info: ResourceInfo, namespace: string | undefined, opts: Omit<ListOptions, 'filter' | 'name'> = {}): Promise<Buffer> {
    return listJson(this.deps.storage, info, namespace, opts, this.converter(info));
  }

  async getJson(info: ResourceInfo, namespace: string | undefined, name: string): Promise<Buffer> {
    const { kv } = await this.deps.storage.get(objectKey(info, namespace, name));
    if (!kv) throw notFound(info, name);
    return jsonFromStorage(await this.served(info, kv), apiVersionOf(info.group, info.version), info.kind, readDefaults(info));
  }

  watch(info: ResourceInfo, namespace: string | undefined, opts: WatchOptions, sink: WatchSink): Promise<Watcher> {
    return watchObjects(this.deps.storage, info, namespace, opts, sink, this.converter(info));
  }

  async create(info: ResourceInfo, namespace: string | undefined, body: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const strategy = this.strategy(info);
    const obj = deepClone(body);
    obj.metadata ??= {};
    if (info.namespaced) {
      obj.metadata.namespace = namespace;
    } else {
      delete obj.metadata.namespace;
    }
    const ctx = this.ctx(info, opts);
    const now = rfc3339(ctx.now);
    obj.apiVersion = apiVersionOf(info.group, info.version);
    obj.kind = info.kind;
    if (hasStatusSubresource(info) && !strategy.keepsStatusOnCreate) delete obj.status;
    await strategy.prepareForCreate(obj, ctx);
    this.recordManager(info, undefined, obj, opts, now);
    const unmutated = opts.admission ? deepClone(obj) : undefined;
    await opts.admission?.mutate(obj, undefined);
    if (unmutated && !jsonEqual(unmutated, obj)) {
      // what the mutating phase added gets its defaults, and server-owned fields it set are
      // reset, as kube-apiserver defaults a patched object and prepares it after admission
      if (hasStatusSubresource(info) && !strategy.keepsStatusOnCreate) delete obj.status;
      await strategy.prepareForCreate(obj, ctx);
    }
    // the system fields (and a generated name, below) come after the mutating phase, as
    // kube-apiserver's store fills them after its handler ran mutating admission: webhooks and
    // mutating policies see no uid or creationTimestamp, the validating phase sees both
    const meta = obj.metadata ??= {};
    this.ensureNamespace(info, meta, namespace);
    meta.uid = this.uid();
    meta.creationTimestamp = now;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.resourceVersion;
    if (strategy.tracksGeneration) meta.generation = 1; else delete meta.generation;
    await strategy.admitCreate?.(obj, ctx);

    const named = !!meta.name;
    if (!named && !meta.generateName) {
      throw invalid(info.kind, info.group, '', [{ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' }]);
    }
    for (let attempt = 0; ; attempt++) {
      if (!named) meta.name = generateName(meta.generateName!, this.random);
      this.validate(info, obj, strategy.validateCreate(obj, ctx));
      // once valid, before admission's validating phase and storage, as kube-apiserver's
      // BeforeCreate does (dry runs included); a retry with another generated name says each once
      if (attempt === 0) for (const w of strategy.warningsOnCreate?.(obj, ctx) ?? []) opts.warn?.(w);
      await opts.admit?.(obj);
      await opts.admission?.validate(obj, undefined);
      if (opts.dryRun) {
        const { kv } = await this.deps.storage.get(objectKey(info, namespace, meta.name!));
        if (kv) throw alreadyExists(info, meta.name!);
        return obj;
      }
      try {
        return await this.written(info, obj, value => this.deps.storage.create(objectKey(info, namespace, meta.name!), value));
      } catch (err) {
        if (!(err instanceof StorageError)) throw err;
        const status = statusFromError(err, { resource: info, name: meta.name! });
        if (status.reason === 'AlreadyExists' && !named && attempt < generateNameAttempts) continue;
        throw status;
      }
    }
  }

  /** PUT: replace the object (or a subresource of it); creates when the strategy allows */
  async update(info: ResourceInfo, namespace: string | undefined, name: string, body: KubeObject, opts: WriteOptions = {}): Promise<{ object: KubeObject; created: boolean }> {
    // a PUT names its object twice, and both must agree (an object without a name does not)
    const bodyName = body.metadata?.name ?? '';
    if (bodyName !== name) throw badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
    const key = objectKey(info, namespace, name);
    const { kv } = await this.deps.storage.get(key);
    if (!kv) {
      if (opts.subresource || !this.strategy(info).allowCreateOnUpdate) throw notFound(info, name);
      if (body.metadata.resourceVersion) throw notFound(info, name);
      return { object: await this.create(info, namespace, body, opts), created: true };
    }
    const current = this.decode(info, await this.served(info, kv));
    // a uid in the body is a precondition, checked before the resourceVersion is
    const uid = body.metadata.uid;
    if (uid && uid !== current.metadata.uid) {
      throw uidPreconditionFailed(info, name, key, uid, current.metadata.uid ?? '');
    }
    const wanted = body.metadata.resourceVersion;
    if (wanted && wanted !== String(kv.modRevision)) throw conflict(info, name);
    return { object: await this.writeUpdate(info, namespace, current, body, kv.modRevision, opts), created: false };
  }

  /**
   * Read-modify-write with retries on conflict: `change` gets the current object and returns
   * the desired one (patches, scale). A resourceVersion the change puts in metadata is a precondition.
   */
  async modify(info: ResourceInfo, namespace: string | undefined, name: string, change: (current: KubeObject) => KubeObject | Promise<KubeObject>, opts: WriteOptions = {}): Promise<KubeObject> {
    const key = objectKey(info, namespace, name);
    for (let attempt = 0; ; attempt++) {
      const { kv } = await this.deps.storage.get(key);
      if (!kv) throw notFound(info, name);
      const current = this.decode(info, await this.served(info, kv));
      const desired = await change(deepClone(current));
      const rv = desired.metadata?.resourceVersion;
      if (rv && rv !== String(kv.modRevision)) throw conflict(info, name);
      if (desired.metadata?.name && desired.metadata.name !== name) {
        throw badRequest(`the name of the object (${desired.metadata.name}) does not match the name on the URL (${name})`);
      }
      try {
        return await this.writeUpdate(info, namespace, current, desired, kv.modRevision, opts);
      } catch (err) {
        if (err instanceof StatusError && err.reason === 'Conflict' && !rv && attempt < 5) continue;
        throw err;
      }
    }
  }

  private async writeUpdate(info: ResourceInfo, namespace: string | undefined, current: KubeObject, body: KubeObject, revision: number, opts: WriteOptions): Promise<KubeObject> {
    const strategy = this.strategy(info);
    const ctx = this.ctx(info, opts);
    // a subresource with writes of its own decides what of the body counts (status, finalize, binding)
    const writes = opts.subresource ? subresourceNamed(opts.subresource)?.writes : undefined;
    let obj = deepClone(body);
    obj.metadata ??= {};
    if (writes) {
      obj = writes.prepare(obj, current, strategy, ctx);
      obj.metadata ??= {};
      // a server-side apply through the subresource has already recorded its managed fields
      if (opts.operation === 'Apply' && body.metadata?.managedFields) obj.metadata.managedFields = deepClone(body.metadata.managedFields);
    } else if (hasStatusSubresource(info)) {
      // the main resource never changes status
      if (current.status === undefined) delete obj.status; else obj.status = deepClone(current.status);
    }
    const old = current.metadata;
    if (info.namespaced) {
      if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      obj.metadata.namespace = namespace;
    }
    obj.metadata.name = old.name;
    obj.apiVersion = apiVersionOf(info.group, info.version);
    obj.kind = info.kind;
    if (!writes) strategy.prepareForUpdate(obj, current, ctx);
    this.recordManager(info, current, obj, opts, rfc3339(ctx.now));
    const unmutated = opts.admission && !writes ? deepClone(obj) : undefined;
    await opts.admission?.mutate(obj, current);
    if (unmutated && !jsonEqual(unmutated, obj)) {
      // as on create: defaults for what the mutating phase added, the stored status kept
      if (hasStatusSubresource(info)) { if (current.status === undefined) delete obj.status; else obj.status = deepClone(current.status); }
      strategy.prepareForUpdate(obj, current, ctx);
    }
    // the system fields are carried over after the mutating phase, as kube-apiserver's
    // BeforeUpdate does after its handler ran mutating admission: webhooks see the body's own
    const meta = obj.metadata ??= {};
    this.ensureNamespace(info, meta, namespace);
    // a body or mutation that changes the uid fails validation, as in Kubernetes (a PUT's uid was a precondition)
    if (meta.uid && meta.uid !== old.uid) throw invalid(info.kind, info.group, old.name!, [immutableField('metadata.uid', meta.uid)]);
    meta.uid = old.uid;
    meta.creationTimestamp = old.creationTimestamp;
    if (old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp; else delete meta.deletionTimestamp;
    if (old.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds; else delete meta.deletionGracePeriodSeconds;
    if (old.generation !== undefined) meta.generation = old.generation; else delete meta.generation;
    const added = old.deletionTimestamp ? newFinalizers(old.finalizers, meta.finalizers) : [];
    if (added.length) {
      throw invalid(info.kind, info.group, old.name!, [{ type: 'FieldValueForbidden', field: 'metadata.finalizers', detail: `no new finalizers can be added if the object is being deleted, found new finalizers ${goStrings(added)}` }]);
    }
    if (strategy.tracksGeneration && specChanged(obj, current)) meta.generation = (old.generation ?? 0) + 1;
    this.validate(info, obj, writes ? writes.validate(obj, current, strategy, ctx) : strategy.validateUpdate(obj, current, ctx));
    // as on create, after validation (a subresource's own writes have strategies that warn of nothing)
    if (!writes) for (const w of strategy.warningsOnUpdate?.(obj, current, ctx) ?? []) opts.warn?.(w);
    await opts.admit?.(obj, current);
    await opts.admission?.validate(obj, current);

    meta.resourceVersion = current.metadata.resourceVersion;
    // nothing changed: no write, no event; unless the value is stale, as Kubernetes rewrites it
    if (jsonEqual(obj, current) && !(await this.deps.isStale?.(objectKey(info, namespace, old.name!)))) return current;
    if (opts.dryRun) return obj;
    // the last finalizer removed from an object being deleted: it goes now
    if (meta.deletionTimestamp && strategy.finalizersOf(obj).length === 0 && (meta.deletionGracePeriodSeconds ?? 0) === 0) {
      const out = await this.removeNow(info, namespace, old.name!, revision);
      return out.object;
    }
    return this.cas(info, namespace, old.name!, obj, revision);
  }

  async delete(info: ResourceInfo, namespace: string | undefined, name: string, opts: DeleteOptions = {}): Promise<DeleteResult> {
    const strategy = this.strategy(info);
    const key = objectKey(info, namespace, name);
    for (let attempt = 0; ; attempt++) {
      const { kv } = await this.deps.storage.get(key);
      if (!kv) throw notFound(info, name);
      const current = this.decode(info, await this.served(info, kv));
      const pre = opts.preconditions;
      // worded as Kubernetes' delete checks them, naming the kind
      const kind = { group: info.group, resource: info.kind };
      if (pre?.uid && pre.uid !== current.metadata.uid) {
        throw conflict(kind, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${current.metadata.uid}). The object might have been deleted and then recreated`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
        throw conflict(kind, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion}). The object might have been modified`);
      }
      await opts.admission?.(current);
      // a negative grace period counts as one second, as Kubernetes' BeforeDelete has it
      const requested = opts.gracePeriodSeconds !== undefined && opts.gracePeriodSeconds < 0 ? 1 : opts.gracePeriodSeconds;
      // the orphan or foregroundDeletion finalizer the request calls for (not while a graceful deletion runs)
      const gc = deletionFinalizers(current.metadata.finalizers, opts, defaultGarbageCollectionPolicy(info));
      const withGc = gc.changed ? { ...current, metadata: { ...current.metadata, finalizers: gc.finalizers } } : current;
      let obj: KubeObject | undefined;
      if (current.metadata.deletionTimestamp) {
        // already being deleted: only a grace period the request names, and shorter, changes it
        const pending = current.metadata.deletionGracePeriodSeconds ?? 0;
        const shorter = pending > 0 && requested !== undefined && requested < pending;
        const grace = shorter ? requested : pending;
        const finalizers = strategy.finalizersOf(pending > 0 ? current : withGc);
        if (grace > 0 || finalizers.length > 0) {
          if (shorter) {
            obj = deepClone(current);
            // the deadline moves back by the difference, from the first delete's deadline
            obj.metadata.deletionTimestamp = rfc3339(Date.parse(current.metadata.deletionTimestamp) + (grace - pending) * 1000);
            obj.metadata.deletionGracePeriodSeconds = grace;
          } else if (pending === 0 && gc.changed) {
            // held by finalizers alone: the request may switch how dependents are treated
            obj = deepClone(withGc);
            obj.metadata.deletionGracePeriodSeconds = 0;
          } else {
            return { object: current, deleted: false };
          }
        }
      } else {
        const { gracePeriodSeconds } = strategy.deleteDecision(current, requested);
        const finalizers = strategy.finalizersOf(withGc);
        if (gracePeriodSeconds > 0 || finalizers.length > 0) {
          // graceful deletion or finalizers pending: mark the object and leave it for its owners
          obj = deepClone(withGc);
          const meta = obj.metadata;
          meta.deletionTimestamp = rfc3339(this.clock.now().getTime() + gracePeriodSeconds * 1000);
          meta.deletionGracePeriodSeconds = gracePeriodSeconds;
          // the first mark for deletion changes what the object is for: its generation moves
          if (meta.generation !== undefined && meta.generation > 0) meta.generation++;
          strategy.markDeleting(obj);
        }
      }
      if (!obj) {
        if (opts.dryRun) return { object: current, deleted: true };
        try {
          return await this.removeNow(info, namespace, name, kv.modRevision);
        } catch (err) {
          if (err instanceof StatusError && err.reason === 'Conflict' && attempt < 5) continue;
          throw err;
        }
      }
      if (opts.dryRun) return { object: obj, deleted: false };
      try {
        return { object: await this.cas(info, namespace, name, obj, kv.modRevision), deleted: false };
      } catch (err) {
        if (err instanceof StatusError && err.reason === 'Conflict' && attempt < 5) continue;
        throw err;
      }
    }
  }

  async deleteCorrupt(info: ResourceInfo, namespace: string | undefined, name: string): Promise<void> {
    const key = objectKey(info, namespace, name);
    const { kv } = await this.deps.storage.get(key);
    if (!kv) throw notFound(info, name);
    try {
      decodeFromStorage(kv, apiVersionOf(info.group, info.version));
    } catch (err) {
      if (!isCorrupt(err)) throw err;
      try {
        // pinned to the revision found corrupt: an object written since is left alone
        await this.deps.storage.delete(key, kv.modRevision);
        return;
      } catch (e) {
        throw this.storageToStatus(e, info, name);
      }
    }
    // worded as Kubernetes does, naming the resource where the kind usually goes
    throw invalid(info.resource, info.group, name, [{ type: 'FieldValueInvalid', field: 'ignoreStoreReadErrorWithClusterBreakingPotential', value: true, detail: 'is exclusively used to delete corrupt object(s), try again by removing this option' }]);
  }

  private async removeNow(info: ResourceInfo, namespace: string | undefined, name: string, revision: number): Promise<DeleteResult> {
    try {
      const { prevKv, revision: rev } = await this.deps.storage.delete(objectKey(info, namespace, name), revision);
      return { object: this.decode(info, await this.served(info, prevKv), rev), deleted: true };
    } catch (err) {
      throw this.storageToStatus(err, info, name);
    }
  }

  /** a compare-and-swap write of obj; answers it as written, with its resourceVersion */
  private async cas(info: ResourceInfo, namespace: string | undefined, name: string, obj: KubeObject, revision: number): Promise<KubeObject> {
    return this.written(info, obj, async value => {
      try {
        return await this.deps.storage.update(objectKey(info, namespace, name), value, revision);
      } catch (err) {
        throw this.storageToStatus(err, info, name);
      }
    });
  }

  private storageToStatus(err: unknown, info: ResourceInfo, name: string): unknown {
    return err instanceof StorageError ? statusFromError(err, { resource: info, name }) : err;
  }

  /** metadata.managedFields for a write by a named manager (apply has set them already) */
  private recordManager(info: ResourceInfo, current: KubeObject | undefined, obj: KubeObject, opts: WriteOptions, now: string): void {
    if (opts.manager === undefined || opts.operation === 'Apply') return;
    recordUpdate(current, obj, managerContext(info, opts.manager, opts.subresource, now));
  }

  /** the request's namespace on the object once mutations ran; a mutation that moved it is refused, as BeforeCreate/BeforeUpdate do */
  private ensureNamespace(info: ResourceInfo, meta: NonNullable<KubeObject['metadata']>, namespace: string | undefined): void {
    if (!info.namespaced) { delete meta.namespace; return; }
    if (meta.namespace && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    meta.namespace = namespace;
  }

  private validate(info: ResourceInfo, obj: KubeObject, strategyErrors: FieldError[]): void {
    const errors: FieldError[] = [];
    const name = obj.metadata.name ?? '';
    const rule = this.strategy(info).nameRule;
    const prefix = obj.metadata.generateName;
    if (prefix) {
      for (const detail of validateName(rule, maskTrailingDash(prefix))) errors.push({ type: 'FieldValueInvalid', field: 'metadata.generateName', value: prefix, detail });
    }
    for (const detail of validateName(rule, name)) {
      errors.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: name, detail });
    }
    errors.push(...validateMetadata(obj), ...strategyErrors);
    if (errors.length) throw invalid(info.kind, info.group, name, errors);
  }
}

function newFinalizers(before: string[] | undefined, after: string[] | undefined): string[] {
  const had = new Set(before ?? []);
  return (after ?? []).filter(f => !had.has(f));
}

/** a list of strings as Go's %#v prints one: []string{"a", "b"} */
function goStrings(list: string[]): string {
  return `[]string{${list.map(s => JSON.stringify(s)).join(', ')}}`;
}

/** a generateName checked as a prefix: a trailing '-' is allowed there (Kubernetes masks it) */
function maskTrailingDash(prefix: string): string {
  return prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -2)}a` : prefix;
}

/** everything but metadata and status counts as spec for generation tracking */
function specChanged(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => { const { metadata: _m, status: _s, apiVersion: _a, kind: _k, ...rest } = o; return rest; };
  return !jsonEqual(strip(obj), strip(old));
}
