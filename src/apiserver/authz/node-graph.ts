// What each node's pods use: the secrets, config maps, persistent volume claims and service
// accounts named by the pods bound to a node, counted per node so that a pod leaving drops
// exactly its own references. The Node authorizer lets a node read only these.

interface PodLike {
  metadata: { name?: string; namespace?: string };
  spec?: { nodeName?: string; [k: string]: any };
}

export type RefKind = 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts';

/** `kind/namespace/name` of every object the pod needs on its node */
export function podReferences(pod: PodLike): string[] {
  const ns = pod.metadata.namespace ?? '';
  const spec = pod.spec ?? {};
  const refs = new Set<string>();
  const add = (kind: RefKind, name: unknown) => { if (typeof name === 'string' && name) refs.add(`${kind}/${ns}/${name}`); };
  add('serviceaccounts', spec.serviceAccountName || 'default');
  for (const s of spec.imagePullSecrets ?? []) add('secrets', s?.name);
  for (const v of spec.volumes ?? []) {
    add('secrets', v?.secret?.secretName);
    add('configmaps', v?.configMap?.name);
    add('persistentvolumeclaims', v?.persistentVolumeClaim?.claimName);
    if (v?.ephemeral) add('persistentvolumeclaims', `${pod.metadata.name}-${v.name}`);
    for (const src of v?.projected?.sources ?? []) { add('secrets', src?.secret?.name); add('configmaps', src?.configMap?.name); }
    add('secrets', v?.cephfs?.secretRef?.name);
    add('secrets', v?.csi?.nodePublishSecretRef?.name);
  }
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of spec[list] ?? []) {
      for (const e of c?.env ?? []) { add('secrets', e?.valueFrom?.secretKeyRef?.name); add('configmaps', e?.valueFrom?.configMapKeyRef?.name); }
      for (const e of c?.envFrom ?? []) { add('secrets', e?.secretRef?.name); add('configmaps', e?.configMapRef?.name); }
    }
  }
  return [...refs];
}

export class NodeGraph {
  private pods = new Map<string, { node: string; refs: string[] }>();
  private byNode = new Map<string, Map<string, number>>();

  /** a pod as a watch reports it; `deleted` removes it */
  apply(pod: PodLike, deleted: boolean): void {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const old = this.pods.get(key);
    if (old) {
      const counts = this.byNode.get(old.node)!;
      for (const r of old.refs) { const n = (counts.get(r) ?? 1) - 1; if (n > 0) counts.set(r, n); else counts.delete(r); }
      this.pods.delete(key);
    }
    const node = pod.spec?.nodeName;
    if (deleted || !node) return;
    const refs = podReferences(pod);
    this.pods.set(key, { node, refs });
    let counts = this.byNode.get(node);
    if (!counts) this.byNode.set(node, counts = new Map());
    for (const r of refs) counts.set(r, (counts.get(r) ?? 0) + 1);
  }

  /** after a watch restarted and listed every pod again: pods it did not list (namespace/name) are dropped */
  retainOnly(seen: Set<string>): void {
    for (const key of [...this.pods.keys()]) {
      if (seen.has(key)) continue;
      const slash = key.indexOf('/');
      this.apply({ metadata: { namespace: key.slice(0, slash), name: key.slice(slash + 1) } }, true);
    }
  }

  related(node: string, kind: RefKind, namespace: string, name: string): boolean {
    return !!this.byNode.get(node)?.has(`${kind}/${namespace}/${name}`);
  }
}
