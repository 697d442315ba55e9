// Who an object is, for the garbage collector: the coordinates an owner reference names
// (apiVersion, kind, name, uid) plus the namespace, which owner references never carry: a
// namespaced owner is looked for in its dependent's namespace.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface Identity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** '' for cluster-scoped objects (and owners whose scope is not known yet) */
  namespace: string;
}

/** the metadata the collector reads of every object */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export const orphanFinalizer = 'orphan';
export const foregroundFinalizer = 'foregroundDeletion';

export const beingDeleted = (m: ObjectMeta | undefined) => !!m?.deletionTimestamp;
export const hasFinalizer = (m: ObjectMeta | undefined, f: string) => !!m?.finalizers?.includes(f);

/** the owner reference names the object with these coordinates (namespace aside) */
export function referenceMatches(ref: OwnerReference, id: Pick<Identity, 'apiVersion' | 'kind' | 'name' | 'uid'>): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion && a.namespace === b.namespace;
}

/** an owner as a dependent in `namespace` names it */
export function ownerIdentity(ref: OwnerReference, namespace: string): Identity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
}

/** as kube-controller-manager prints an object reference in its events and logs */
export function identityString(id: Identity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

/** kind and apiVersion first, so that identities of one kind sort together whatever their scope */
export function identityLess(a: Identity, b: Identity): boolean {
  for (const k of ['kind', 'apiVersion', 'namespace', 'name', 'uid'] as const) {
    if (a[k] !== b[k]) return a[k] < b[k];
  }
  return false;
}

export function identityKey(id: Identity): string {
  return `${id.apiVersion}|${id.kind}|${id.namespace}|${id.name}|${id.uid}`;
}
