// Image references as containerd and the kubelet read them: "busybox" is
// docker.io/library/busybox:latest, "example.com/app" keeps its registry, a digest reference
// keeps its digest. Shared by the simulated runtime and the agent's image manager.

export interface ImageRef {
  /** domain/path without tag or digest: "docker.io/library/busybox" */
  repository: string;
  tag?: string;
  digest?: string;
}

const component = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const tagPattern = /^[\w][\w.-]{0,127}$/;
const digestPattern = /^sha256:[0-9a-f]{64}$/;

/** the reference, or undefined when it is not one (containerd: "invalid reference format") */
export function parseImageRef(ref: string): ImageRef | undefined {
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!digestPattern.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!tagPattern.test(tag)) return undefined;
  }
  const parts = rest.split('/');
  let domain = 'docker.io';
  const first = parts[0]!;
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    domain = first;
    parts.shift();
  }
  if (parts.length === 0 || !parts.every(p => component.test(p))) return undefined;
  if (domain === 'docker.io' && parts.length === 1) parts.unshift('library');
  if (!tag && !digest) tag = 'latest';
  return { repository: `${domain}/${parts.join('/')}`, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

export function formatImageRef(r: ImageRef): string {
  return r.repository + (r.tag ? `:${r.tag}` : '') + (r.digest ? `@${r.digest}` : '');
}

/** "busybox" → "docker.io/library/busybox:latest"; undefined when not a reference */
export function normalizeImageRef(ref: string): string | undefined {
  const parsed = parseImageRef(ref);
  return parsed && formatImageRef(parsed);
}
