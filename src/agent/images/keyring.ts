// Registry credentials from a pod's image pull secrets, as the kubelet's docker keyring finds them:
// `kubernetes.io/dockerconfigjson` (`.dockerconfigjson`, its `auths`) and `kubernetes.io/dockercfg`
// (`.dockercfg`) secrets, each entry keyed by a registry location. A lookup for a repository
// returns every credential whose location matches it (most specific location first; host parts
// may be globs, `*.example.com`), or else those for Docker Hub's index when the repository is
// Docker Hub's. Each credential carries its secret's coordinates and a SHA-256 of its JSON, which
// the pull records keep to tell later whether a pod holds the credentials an image was pulled with.

import { createHash } from 'node:crypto';
import { goString } from '../../codec/go-json.ts';

export interface SecretCoordinates { uid: string; namespace: string; name: string }
export interface AuthConfig { username?: string; password?: string; email?: string }
export interface TrackedAuth {
  auth: AuthConfig;
  /** hex SHA-256 of the AuthConfig as Go's encoder writes it */
  hash: string;
  /** the secret it came from; absent for credentials every pod on the node may use */
  secret?: SecretCoordinates;
}
/** a Secret as the API returns it (data base64-encoded) */
export interface PullSecret { metadata: { uid?: string; namespace?: string; name?: string }; type?: string; data?: Record<string, string> }

/** the AuthConfig's hash: its fields in Go's order, empty ones left out */
export function authConfigHash(a: AuthConfig): string {
  const fields = ([['username', a.username], ['password', a.password], ['email', a.email]] as const).filter(([, v]) => v);
  const json = `{${fields.map(([k, v]) => `"${k}":${goString(v!)}`).join(',')}}`;
  return createHash('sha256').update(json).digest('hex');
}

/** one docker config entry; `auth` (base64 of user:password) wins over the separate fields */
function entryAuth(e: Record<string, unknown>): AuthConfig {
  let username = typeof e['username'] === 'string' ? e['username'] : '';
  let password = typeof e['password'] === 'string' ? e['password'] : '';
  if (typeof e['auth'] === 'string' && e['auth']) {
    const decoded = Buffer.from(e['auth'], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new Error('unable to parse auth field, must be formatted as base64(username:password)');
    username = decoded.slice(0, colon);
    password = decoded.slice(colon + 1);
  }
  return { username, password, email: typeof e['email'] === 'string' ? e['email'] : '' };
}

/** a location as the keyring indexes it: host and path, scheme and a /v1/ or /v2/ prefix dropped */
function locationKey(loc: string): string | undefined {
  let url: URL;
  try { url = new URL(/^https?:\/\//.test(loc) ? loc : `https://${loc}`); } catch { return undefined; }
  let path = decodeURIComponent(url.pathname);
  if (path.startsWith('/v2/') || path.startsWith('/v1/')) path = path.slice(3);
  return path && path !== '/' ? url.host + path : url.host;
}

/** filepath.Match for one host label: `*` any run, `?` one character */
function globMatch(glob: string, s: string): boolean {
  const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*').replace(/\?/g, '[^.]')}$`);
  return re.test(s);
}

function splitHost(hostPort: string): [string[], string] {
  const m = /^(.*?)(?::(\d+))?$/.exec(hostPort)!;
  return [m[1]!.split('.'), m[2] ?? ''];
}

/** whether a keyring location (host labels may be globs) covers a repository */
export function locationMatches(key: string, repo: string): boolean {
  const slash = (s: string) => (s.indexOf('/') < 0 ? [s, ''] : [s.slice(0, s.indexOf('/')), s.slice(s.indexOf('/'))]);
  const [kHost, kPath] = slash(key), [rHost, rPath] = slash(repo);
  const [kParts, kPort] = splitHost(kHost!), [rParts, rPort] = splitHost(rHost!);
  if (kPort !== rPort || kParts.length !== rParts.length || !rPath!.startsWith(kPath!)) return false;
  return kParts.every((p, i) => globMatch(p, rParts[i]!));
}

function isDockerHub(repo: string): boolean {
  const parts = repo.split('/');
  if (!parts[0]) return false;
  if (parts.length === 1 || parts[0] === 'docker.io' || parts[0] === 'index.docker.io') return true;
  return !/[.:]/.test(parts[0]);
}

export interface Keyring { lookup(repo: string): TrackedAuth[] }

/** the keyring of a pod's pull secrets; a secret whose docker config does not parse throws */
export function secretsKeyring(secrets: PullSecret[]): Keyring {
  const creds = new Map<string, TrackedAuth[]>();
  for (const s of secrets) {
    let entries: Record<string, Record<string, unknown>> | undefined;
    const data = s.data ?? {};
    if (s.type === 'kubernetes.io/dockerconfigjson' && data['.dockerconfigjson']) {
      entries = (JSON.parse(Buffer.from(data['.dockerconfigjson'], 'base64').toString('utf8')) as { auths?: Record<string, Record<string, unknown>> }).auths ?? {};
    } else if (s.type === 'kubernetes.io/dockercfg' && data['.dockercfg']) {
      entries = JSON.parse(Buffer.from(data['.dockercfg'], 'base64').toString('utf8')) as Record<string, Record<string, unknown>>;
    }
    const secret = { uid: s.metadata.uid ?? '', namespace: s.metadata.namespace ?? '', name: s.metadata.name ?? '' };
    for (const [loc, entry] of Object.entries(entries ?? {})) {
      const key = locationKey(loc);
      if (!key) continue;
      const auth = entryAuth(entry ?? {});
      creds.set(key, [...(creds.get(key) ?? []), { auth, hash: authConfigHash(auth), secret }]);
    }
  }
  // reverse order: the more specific path of a host comes first
  const index = [...creds.keys()].sort().reverse();
  return {
    lookup(repo) {
      const found = index.filter(k => locationMatches(k, repo)).flatMap(k => creds.get(k)!);
      if (found.length) return found;
      return isDockerHub(repo) ? creds.get('index.docker.io') ?? [] : [];
    },
  };
}
