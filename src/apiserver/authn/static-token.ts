// --token-auth-file: Kubernetes' static token file, a CSV of `token,user,uid,"group1,group2"`.
// Read once at start (kube-apiserver does not reload it either). Records with fewer than three
// columns make the file unusable, as in Kubernetes; an empty token is skipped.

import type { User } from '../context.ts';
import type { TokenAuthenticator } from './token.ts';

/** splits CSV text into records (RFC 4180 quoting, leading spaces of a field trimmed) */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let atFieldStart = true;
  let sawAny = false;
  const endField = () => { record.push(field); field = ''; atFieldStart = true; };
  const endRecord = () => {
    endField();
    if (sawAny) records.push(record);
    record = []; sawAny = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false;
      else field += c;
      continue;
    }
    if (atFieldStart && (c === ' ' || c === '\t')) continue;
    if (c === '"' && atFieldStart) { quoted = true; atFieldStart = false; sawAny = true; continue; }
    if (c === ',') { sawAny = true; endField(); continue; }
    if (c === '\r' && text[i + 1] === '\n') continue;
    if (c === '\n') { endRecord(); continue; }
    field += c; atFieldStart = false; sawAny = true;
  }
  if (quoted) throw new Error('extraneous or missing " in quoted-field');
  endRecord();
  return records;
}

/** the users of a token file's text; throws with Kubernetes' wording on a short record */
export function parseTokenFile(text: string, path: string): Map<string, User> {
  const users = new Map<string, User>();
  const records = parseCsv(text.replace(/^\uFEFF/, ''));
  records.forEach((rec, i) => {
    if (rec.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${rec.length}`);
    const [token, name, uid, groups] = rec as [string, string, string, string | undefined];
    if (!token) return; // Kubernetes warns about and skips an empty token (record i + 1)
    void i;
    const user: User = { name, uid, groups: groups ? groups.split(',').map(g => g.trim()).filter(Boolean) : [] };
    users.set(token, user);
  });
  return users;
}

export function staticTokenAuthenticator(users: ReadonlyMap<string, User>): TokenAuthenticator {
  return {
    async authenticate(token) {
      const user = users.get(token);
      // a copy: the chain adds system:authenticated to what it returns
      return user ? { user: { ...user, groups: [...user.groups] } } : undefined;
    },
  };
}
