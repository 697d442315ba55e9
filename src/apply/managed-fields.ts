// metadata.managedFields: who owns which fields. Every write records its manager's changes
// (operation Update); server-side apply (operation Apply) merges a configuration, reports
// conflicts with fields other managers own, and removes fields its manager stopped applying
// that nobody else owns.

import { conflictStatus } from './conflicts.ts';
import { deepClone, isObject, jsonEqual } from '../api/object.ts';
import { schemaNode, type SchemaNode } from '../schema/schema-walker.ts';
import { FieldSet, type Path } from './field-set.ts';
import { shapeOf, type Shape } from './shape.ts';
import { trackedOnly } from './tracked.ts';
import { changedFields, existingOnly, fieldSetOf, mergeConfig, removePath } from './walk.ts';

type Obj = Record<string, unknown>;

export interface ManagerContext {
  /** OpenAPI definition of the object's type, e.g. io.k8s.api.apps.v1.Deployment */
  definition: string;
  /** the object's type when it has no definition of its own (custom resources, from their schema) */
  schema?: SchemaNode;
  /** the main resource owns status too (a custom resource without a status subresource) */
  ownsStatus?: boolean;
  /** recorded in the entry: the version the manager spoke */
  apiVersion: string;
  manager: string;
  /** '' for the main resource, else 'status', 'scale', ... */
  subresource: string;
  /** the only fields a write through the subresource may own (undefined: the main resource's) */
  owns?: ReadonlyArray<readonly string[]>;
  /** RFC 3339, seconds */
  now: string;
}

interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource: string;
  set: FieldSet;
}

function metadataOf(obj: unknown): Obj {
  if (!isObject(obj)) return {};
  if (!isObject(obj.metadata)) obj.metadata = {};
  return obj.metadata as Obj;
}

function decodeEntries(list: unknown): Entry[] {
  if (!Array.isArray(list)) return [];
  const out: Entry[] = [];
  for (const raw of list) {
    if (!isObject(raw) || typeof raw.manager !== 'string') continue;
    out.push({
      manager: raw.manager,
      operation: raw.operation === 'Apply' ? 'Apply' : 'Update',
      apiVersion: typeof raw.apiVersion === 'string' ? raw.apiVersion : '',
      time: typeof raw.time === 'string' ? raw.time : undefined,
      subresource: typeof raw.subresource === 'string' ? raw.subresource : '',
      set: FieldSet.fromFieldsV1(raw.fieldsV1),
    });
  }
  return out;
}

function encodeEntries(entries: Entry[]): Obj[] {
  return entries.filter(e => !e.set.empty).map(e => {
    const out: Obj = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
    if (e.time) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = e.set.toFieldsV1();
    if (e.subresource) out.subresource = e.subresource;
    return out;
  });
}

function sameOwner(e: Entry, manager: string, operation: Entry['operation'], subresource: string): boolean {
  return e.manager === manager && e.operation === operation && e.subresource === subresource;
}

function rootShape(ctx: ManagerContext): Shape {
  return shapeOf(ctx.schema ?? schemaNode(ctx.definition));
}

/** drop every owned path that no longer exists in `obj` */
function pruneMissing(entries: Entry[], obj: unknown, shape: Shape): void {
  for (const e of entries) e.set = existingOnly(e.set, obj, shape);
}

/** whether `set` has `path` or anything below it */
function touches(set: FieldSet, path: Path): boolean {
  let n: FieldSet | undefined = set;
  for (const pe of path) { n = n.children.get(pe); if (!n) return false; }
  return !n.empty;
}

/** the entry of a manager and operation, created (empty) when missing */
function entryFor(entries: Entry[], ctx: ManagerContext, operation: Entry['operation']): Entry {
  let e = entries.find(x => sameOwner(x, ctx.manager, operation, ctx.subresource));
  if (!e) entries.push(e = { manager: ctx.manager, operation, apiVersion: ctx.apiVersion, subresource: ctx.subresource, set: new FieldSet() });
  return e;
}

/**
 * A non-apply write by `ctx.manager`: it comes to own what it changed, others stop owning it,
 * and fields that are gone are owned by nobody. A client that sends managedFields of its own
 * (changed from the stored ones) has them taken as they are; an empty list clears them.
 */
export function recordUpdate(oldObj: unknown, newObj: unknown, ctx: ManagerContext): void {
  const meta = metadataOf(newObj);
  const oldMeta = isObject(oldObj) && isObject(oldObj.metadata) ? oldObj.metadata as Obj : {};
  const sent = meta.managedFields;
  if (Array.isArray(sent) && (sent.length === 0 || (sent.length === 1 && isObject(sent[0]) && Object.keys(sent[0]).length === 0))) {
    delete meta.managedFields;
    return;
  }
  const base = sent !== undefined && !jsonEqual(sent, oldMeta.managedFields) ? sent : oldMeta.managedFields;
  const entries = decodeEntries(base);
  const shape = rootShape(ctx);
  const changed = trackedOnly(changedFields(oldObj, newObj, shape), ctx.owns, ctx.ownsStatus);
  if (!changed.empty) {
    for (const e of entries) e.set = e.set.difference(changed);
    const mine = entryFor(entries, ctx, 'Update');
    mine.set = mine.set.union(changed);
    mine.apiVersion = ctx.apiVersion;
    mine.time = ctx.now;
  }
  // on create everything recorded exists; otherwise fields may have gone
  if (oldObj !== undefined || base !== undefined) pruneMissing(entries, newObj, shape);
  const encoded = encodeEntries(entries);
  if (encoded.length) meta.managedFields = encoded; else delete meta.managedFields;
}

/**
 * Server-side apply of `config` over `live` (undefined: the object does not exist yet). Throws a
 * 409 Conflict naming each field another manager owns with a different value, unless `force`,
 * which takes those fields over.
 */
export function applyConfiguration(live: Obj | undefined, config: Obj, ctx: ManagerContext, force: boolean): Obj {
  const shape = rootShape(ctx);
  const liveMeta = live && isObject(live.metadata) ? live.metadata as Obj : {};
  const entries = decodeEntries(liveMeta.managedFields);
  const cfg = deepClone(config);
  if (isObject(cfg.metadata)) delete (cfg.metadata as Obj).managedFields;
  const applied = trackedOnly(fieldSetOf(cfg, shape), ctx.owns, ctx.ownsStatus);
  const base: Obj = live ? deepClone(live) : {};
  let merged = mergeConfig(base, onlyTracked(cfg, ctx.owns, ctx.ownsStatus), shape) as Obj;

  // conflicts: fields this apply changes that another manager owns
  const changed = trackedOnly(changedFields(live ?? {}, merged, shape), ctx.owns, ctx.ownsStatus);
  const mine = entries.find(e => sameOwner(e, ctx.manager, 'Apply', ctx.subresource));
  const others = entries.filter(e => e !== mine);
  const conflicts: Array<{ entry: Entry; path: Path }> = [];
  for (const e of others) for (const p of changed.intersection(e.set).paths()) conflicts.push({ entry: e, path: p });
  if (conflicts.length && !force) throw conflictStatus(conflicts.map(c => ({ manager: c.entry.manager, apiVersion: c.entry.apiVersion, path: c.path, operation: c.entry.operation, subresource: c.entry.subresource })));
  if (force) for (const e of others) e.set = e.set.difference(changed);

  // fields this manager applied before and no longer does go, unless someone else still owns them
  const previous = mine?.set ?? new FieldSet();
  const dropped = [...previous.difference(applied).paths()];
  // parents first: a removed item takes its fields with it
  for (const p of dropped) {
    if (others.some(e => touches(e.set, p)) || touches(applied, p)) continue;
    removePath(merged, p, shape);
  }

  const entry = mine ?? entryFor(entries, ctx, 'Apply');
  const unchanged = live !== undefined && jsonEqual(withoutManagedFields(merged), withoutManagedFields(live)) && jsonEqual([...previous.paths()], [...applied.paths()]);
  if (unchanged) return live!;
  entry.set = applied;
  entry.apiVersion = ctx.apiVersion;
  entry.time = ctx.now;
  pruneMissing(entries, merged, shape);
  const meta = metadataOf(merged);
  const encoded = encodeEntries(entries);
  if (encoded.length) meta.managedFields = encoded; else delete meta.managedFields;
  return merged;
}

function withoutManagedFields(obj: Obj): Obj {
  if (!isObject(obj.metadata)) return obj;
  const { managedFields: _m, ...meta } = obj.metadata as Obj;
  return { ...obj, metadata: meta };
}

/** the part of a configuration a write may change: a subresource's own fields, or all but status */
function onlyTracked(cfg: Obj, owns: ReadonlyArray<readonly string[]> | undefined, ownsStatus = false): Obj {
  if (!owns) {
    if (ownsStatus) return cfg;
    const { status: _s, ...rest } = cfg;
    return rest;
  }
  const out: Obj = {};
  for (const path of owns) {
    let v: unknown = cfg;
    for (const f of path) v = isObject(v) ? (v as Obj)[f] : undefined;
    if (v === undefined) continue;
    let into = out;
    for (const f of path.slice(0, -1)) into = (into[f] ??= {}) as Obj;
    into[path[path.length - 1]!] = v;
  }
  return out;
}
