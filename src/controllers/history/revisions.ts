// ControllerRevisions, the history StatefulSets and DaemonSets keep of their pod templates
// (`kubectl rollout history|undo` read them): each holds a patch that puts a template back,
// a revision number, and a name made of the owner's name and a hash of that patch, as
// Kubernetes' controller history builds them. Pure.

import { deepClone, jsonEqual } from '../../api/object.ts';
import type { AppsV1ControllerRevision, CoreV1PodTemplateSpec } from '../../schema/generated/types.ts';
import { controllerRefTo, type Owner } from '../owner-refs.ts';
import { canonicalJson, fnv32a, safeEncode } from '../object-hash.ts';

export type Revision = AppsV1ControllerRevision & { metadata: { name: string; namespace?: string } };

/** the label every revision (and a DaemonSet's pods) carries: the revision's hash */
export const revisionHashLabel = 'controller-revision-hash';

/**
 * FNV-32a over the data (as JSON with sorted keys; Kubernetes hashes Go's printout, so the digits
 * differ but the form and stability are the same), the collision count appended when there is
 * one, spelled in the safe alphabet.
 */
export function revisionHash(data: unknown, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(canonicalJson(data), 'utf8'));
  if (collisionCount !== undefined && collisionCount !== null) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(collisionCount >>> 0, 0);
    h = fnv32a(b, h);
  }
  return safeEncode(String(h));
}

/** `<owner>-<hash>`, the owner's part cut to 223 characters so the name stays valid */
export function revisionName(ownerName: string, hash: string): string {
  return `${ownerName.slice(0, 223)}-${hash}`;
}

/** the patch a revision stores: the template, replacing whatever a set has when applied */
export function templatePatch(template: CoreV1PodTemplateSpec | undefined): { spec: { template: Record<string, unknown> } } {
  return { spec: { template: { ...deepClone(template ?? {}), $patch: 'replace' } } };
}

/** the template a revision puts back */
export function templateOf(rev: Revision): CoreV1PodTemplateSpec {
  const t = deepClone(((rev.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec?.template) ?? {});
  delete t.$patch;
  return t as CoreV1PodTemplateSpec;
}

export interface NewRevision {
  owner: Owner;
  labels: Record<string, string> | undefined;
  annotations?: Record<string, string>;
  data: unknown;
  revision: number;
  collisionCount?: number;
  /** the hash, when the owner computes it another way (DaemonSets hash the template) */
  hash?: string;
}

export function newRevision(r: NewRevision): Revision {
  const hash = r.hash ?? revisionHash(r.data, r.collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionName(r.owner.metadata.name, hash),
      namespace: r.owner.metadata.namespace,
      labels: { ...r.labels, [revisionHashLabel]: hash },
      ...(r.annotations && Object.keys(r.annotations).length ? { annotations: { ...r.annotations } } : {}),
      ownerReferences: [controllerRefTo(r.owner)],
    },
    data: r.data as Revision['data'],
    revision: r.revision,
  };
}

export const equalRevision = (a: Revision, b: Revision): boolean => jsonEqual(a.data, b.data);

/** by revision number, then creation time, then name, as Kubernetes sorts history */
export function sortRevisions(revs: Revision[]): Revision[] {
  return [...revs].sort((a, b) => (a.revision - b.revision) || String(a.metadata.creationTimestamp ?? '').localeCompare(String(b.metadata.creationTimestamp ?? '')) || a.metadata.name.localeCompare(b.metadata.name));
}

export function nextRevisionNumber(sorted: Revision[]): number {
  return sorted.length ? sorted[sorted.length - 1]!.revision + 1 : 1;
}

/**
 * Revisions to delete so that at most `limit` of the ones nothing uses remain, oldest first.
 * `live`: names (or hashes) of the revisions the owner's status and pods still use.
 */
export function revisionsToPrune(sorted: Revision[], live: (r: Revision) => boolean, limit: number): Revision[] {
  const history = sorted.filter(r => !live(r));
  return history.length <= limit ? [] : history.slice(0, history.length - limit);
}
