// Files a volume projects onto paths that collide ("a" and "a/b", or one path twice): the
// kubelet then fails with "is directory" or "file exists", so kube-apiserver warns at write time.
// Kept as it checks: a path collides with an earlier one when either, with a "/" added, starts
// with the other (so "ab" collides with "a" too), and a path "" ends the search.

type Items = Array<{ path?: string }> | null | undefined;
type Volume = Record<string, unknown> & { name?: string };

const paths = (items: Items) => (items ?? []).map(i => i?.path ?? '');

function collision(seen: string[], path: string): string {
  for (const item of seen) {
    if (item === '' || path === '') return '';
    if (item === path || `${item}/`.startsWith(path) || `${path}/`.startsWith(item)) return item;
  }
  return '';
}

function overlaps(list: string[], message: string): string[] {
  const out: string[] = [];
  const seen: string[] = [];
  for (const p of list) {
    const normalized = p.replace(/\/+$/, '');
    const hit = collision(seen, normalized);
    if (hit !== '') out.push(`${message}: ${JSON.stringify(normalized)} with ${JSON.stringify(hit)}`);
    if (!seen.includes(normalized)) seen.push(normalized);
  }
  return out;
}

const obj = (v: unknown) => (v && typeof v === 'object' ? v as Record<string, unknown> : undefined);

export function overlappingPathWarnings(volumes: Volume[] | null | undefined): string[] {
  const out: string[] = [];
  for (const v of volumes ?? []) {
    const name = JSON.stringify(v.name ?? '');
    const cm = obj(v.configMap), secret = obj(v.secret), downward = obj(v.downwardAPI), projected = obj(v.projected);
    if (cm?.items) out.push(...overlaps(paths(cm.items as Items), `volume ${name} (ConfigMap ${JSON.stringify(cm.name ?? '')}): overlapping paths`));
    if (secret?.items) out.push(...overlaps(paths(secret.items as Items), `volume ${name} (Secret ${JSON.stringify(secret.secretName ?? '')}): overlapping paths`));
    if (downward?.items) out.push(...overlaps(paths(downward.items as Items), `volume ${name} (DownwardAPI): overlapping paths`));
    if (!projected) continue;
    // kube-apiserver keeps the last source's paths and message across sources: a source it does
    // not list (a configMap without items) checks the one before again, against all seen so far
    let sourcePaths: string[] = [];
    let message = '';
    const all: string[] = [];
    for (const source of (projected.sources ?? []) as Array<Record<string, unknown>>) {
      if (!source || Object.values(source).every(x => x == null)) {
        out.push(`volume ${name} (Projected) has no sources provided`);
        continue;
      }
      const pcm = obj(source.configMap), ps = obj(source.secret), pd = obj(source.downwardAPI), sa = obj(source.serviceAccountToken), ctb = obj(source.clusterTrustBundle);
      if (pcm?.items) { sourcePaths = paths(pcm.items as Items); message = `volume ${name} (Projected ConfigMap ${JSON.stringify(pcm.name ?? '')}): overlapping paths`; }
      else if (ps?.items) { sourcePaths = paths(ps.items as Items); message = `volume ${name} (Projected Secret ${JSON.stringify(ps.name ?? '')}): overlapping paths`; }
      else if (pd?.items) { sourcePaths = paths(pd.items as Items); message = `volume ${name} (Projected DownwardAPI): overlapping paths`; }
      else if (sa) { sourcePaths = [String(sa.path ?? '')]; message = `volume ${name} (Projected ServiceAccountToken): overlapping paths`; }
      else if (ctb) { sourcePaths = [String(ctb.path ?? '')]; message = `volume ${name} (Projected ClusterTrustBundle ${JSON.stringify(ctb.name ?? ctb.signerName ?? '')}): overlapping paths`; }
      if (sourcePaths.length === 0) continue;
      out.push(...overlaps(sourcePaths, message));
      const unique = [...new Set(sourcePaths)];
      out.push(...overlaps([...unique, ...all].sort(), message));
      for (const p of unique) if (!all.includes(p)) all.push(p);
    }
  }
  return out;
}
