// What the benches that start servers of their own share: the admin client credentials of a
// server's data dir, credentials of any user its CA signs, and the median of the ratios of their windows.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { TlsClient } from './load.ts';
import { issueCert } from '../../src/pki/certs.ts';
import { readPair } from '../../src/pki/pair-files.ts';

export async function adminTls(dataDir: string): Promise<TlsClient> {
  const kc = parse(await readFile(join(dataDir, 'admin.kubeconfig'), 'utf8'));
  const b = (s: string) => Buffer.from(s, 'base64');
  return { ca: b(kc.clusters[0].cluster['certificate-authority-data']), cert: b(kc.users[0].user['client-certificate-data']), key: b(kc.users[0].user['client-key-data']) };
}

/** a client certificate for `user` in `groups`, signed by the data dir's cluster CA */
export async function userTls(dataDir: string, user: string, groups: string[] = []): Promise<TlsClient> {
  const ca = await readPair(join(dataDir, 'pki'), 'ca');
  if (!ca) throw new Error(`no cluster CA in ${dataDir}`);
  const pair = await issueCert(ca, { commonName: user, organizations: groups, days: 1, usage: 'client' });
  return { ca: Buffer.from(ca.cert), cert: Buffer.from(pair.cert), key: Buffer.from(pair.key) };
}

export const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
