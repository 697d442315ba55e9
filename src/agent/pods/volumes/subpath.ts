// subPath and subPathExpr mounts, prepared as the kubelet prepares them when it builds a
// container's configuration: the expression expanded from the container's variables (every one
// it names must have a value), the path checked (relative, no `..`), a missing directory made
// inside a writable volume with the volume's mode, and the result resolved through its symlinks
// and refused unless it stays inside the volume. The resolved path is what the runtime mounts, so
// a subPath of a ConfigMap volume keeps the version of the file it started with, as in
// Kubernetes. Failures are CreateContainerConfigError in the kubelet's words (which leave the
// host's paths out).

import { chmod, mkdir, realpath, stat } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';
import { configError } from '../config-errors.ts';

/** `$(NAME)` references replaced by the variables' values; `$$` is a literal `$` */
export function expandSubPathExpr(expr: string, vars: Map<string, string>): { value: string; missing: string[] } {
  const missing = new Set<string>();
  let value = '';
  for (let i = 0; i < expr.length; i++) {
    const ch = expr[i]!;
    if (ch === '$' && expr[i + 1] === '$') { value += '$'; i++; continue; }
    if (ch === '$' && expr[i + 1] === '(') {
      const close = expr.indexOf(')', i + 2);
      if (close > 0) {
        const name = expr.slice(i + 2, close);
        const v = vars.get(name);
        if (!v) missing.add(name);
        value += v ?? '';
        i = close;
        continue;
      }
    }
    value += ch;
  }
  return { value, missing: [...missing].sort() };
}

export interface SubPathMount { name: string; subPath?: string; subPathExpr?: string }

/** the subPath a mount asks for after expansion, checked; '' for none */
export function mountSubPath(m: SubPathMount, vars: Map<string, string>): string {
  let sub = m.subPath ?? '';
  if (m.subPathExpr) {
    const { value, missing } = expandSubPathExpr(m.subPathExpr, vars);
    if (missing.length) throw configError(`missing value for ${missing.join(', ')}`);
    sub = value;
  }
  if (!sub) return '';
  if (isAbsolute(sub)) throw configError(`error SubPath \`${sub}\` must not be an absolute path`);
  if (sub.split('/').includes('..')) throw configError(`unable to provision SubPath \`${sub}\`: must not contain '..'`);
  return sub;
}

/** whether `path` is `base` or below it (the atomic writer's `..<version>` entries are below it) */
const within = (path: string, base: string) => { const r = relative(base, path); return r !== '..' && !r.startsWith('../') && !isAbsolute(r); };

/** the host path to mount for a subPath of a volume at `volumePath`, made when missing */
export async function resolveSubPath(volumePath: string, sub: string, mount: string, container: string): Promise<string> {
  const wanted = join(volumePath, sub);
  if (!(await stat(wanted).then(() => true, () => false))) {
    // made now with the volume's own mode, rather than by the runtime with whatever it picks
    const mode = ((await stat(volumePath).catch(() => undefined))?.mode ?? 0o755) & 0o7777;
    try {
      const base = await realpath(volumePath);
      let dir = volumePath;
      for (const part of sub.split('/').filter(Boolean)) {
        dir = join(dir, part);
        // nothing is made through a link that leads out of the volume
        if (await stat(dir).then(() => true, () => false)) {
          if (!within(await realpath(dir), base)) throw new Error('outside');
          continue;
        }
        await mkdir(dir);
        // past the umask, as the kubelet sets it
        await chmod(dir, mode);
      }
    } catch {
      throw configError(`failed to create subPath directory for volumeMount ${JSON.stringify(mount)} of container ${JSON.stringify(container)}`);
    }
  }
  try {
    const base = await realpath(volumePath);
    const real = await realpath(wanted);
    if (!within(real, base)) throw new Error('outside');
    return real;
  } catch {
    throw configError(`failed to prepare subPath for volumeMount ${JSON.stringify(mount)} of container ${JSON.stringify(container)}`);
  }
}
