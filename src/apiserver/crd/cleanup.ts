// The finalizer `customresourcecleanup.apiextensions.k8s.io`: a deleted CRD's objects are all
// deleted, their absence confirmed, and only then the finalizer removed, so the definition (and
// with it the served resource) goes last, as kube-apiserver's CRD finalizer controller does.

import { StatusError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import type { Registry } from '../../registry/registry.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import { cleanupFinalizer, withCondition, type Crd, type CrdCondition } from '../../registry/apiextensions/crd-types.ts';

export interface CleanupDeps {
  registry: Registry;
  crdInfo: ResourceInfo;
  now(): string;
  /** how long remaining objects (held by their own finalizers) are waited for before trying again later */
  waitMs?: number;
}

async function setTerminating(deps: CleanupDeps, name: string, condition: Omit<CrdCondition, 'type'>): Promise<void> {
  await deps.registry.modify(deps.crdInfo, undefined, name, cur => {
    const crd = cur as Crd;
    const status = { ...(crd.status ?? {}) };
    status.conditions = withCondition(status.conditions, { type: 'Terminating', ...condition }, deps.now());
    return { ...crd, status } as KubeObject;
  }, { subresource: 'status', manager: 'kube-apiserver' });
}

const ignoreNotFound = (err: unknown): void => { if (!(err instanceof StatusError && err.code === 404)) throw err; };

/** deletes every object of the resource; true once none remains */
async function deleteAll(registry: Registry, info: ResourceInfo, waitMs: number): Promise<boolean> {
  const items = (await registry.list(info, undefined)).items;
  await Promise.all(items.filter(o => !o.metadata.deletionTimestamp).map(o => registry.delete(info, o.metadata.namespace, o.metadata.name!, {}).catch(ignoreNotFound)));
  const deadline = Date.now() + waitMs;
  for (;;) {
    if ((await registry.list(info, undefined, { limit: 1 })).items.length === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise(r => setTimeout(r, 100));
  }
}

/**
 * runs the cleanup of one deleted CRD; `info` is its served resource (undefined: never
 * served, so it has no objects). False when objects remain and it must be tried again.
 */
export async function cleanUp(deps: CleanupDeps, crd: Crd, info: ResourceInfo | undefined): Promise<boolean> {
  const name = crd.metadata.name!;
  await setTerminating(deps, name, { status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' });
  if (!info) {
    await setTerminating(deps, name, { status: 'False', reason: 'NeverEstablished', message: 'resource was never established' });
  } else if (await deleteAll(deps.registry, info, deps.waitMs ?? 10_000)) {
    await setTerminating(deps, name, { status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' });
  } else {
    await setTerminating(deps, name, { status: 'True', reason: 'InstanceDeletionCheck', message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition' });
    return false;
  }
  await deps.registry.modify(deps.crdInfo, undefined, name, cur => ({
    ...cur,
    metadata: { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter(f => f !== cleanupFinalizer) },
  }), { manager: 'kube-apiserver' }).catch(ignoreNotFound);
  return true;
}

/** whether the CRD is gone from storage (its last finalizer removed) */
export async function isGone(deps: Pick<CleanupDeps, 'registry' | 'crdInfo'>, name: string): Promise<boolean> {
  try {
    await deps.registry.get(deps.crdInfo, undefined, name);
    return false;
  } catch (err) {
    ignoreNotFound(err);
    return true;
  }
}
