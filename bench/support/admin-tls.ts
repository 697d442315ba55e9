// What the benches that start servers of their own share: the admin client credentials of a
// server's data dir, and the median of the ratios of their windows.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { TlsClient } from './load.ts';

export async function adminTls(dataDir: string): Promise<TlsClient> {
  const kc = parse(await readFile(join(dataDir, 'admin.kubeconfig'), 'utf8'));
  const b = (s: string) => Buffer.from(s, 'base64');
  return { ca: b(kc.clusters[0].cluster['certificate-authority-data']), cert: b(kc.users[0].user['client-certificate-data']), key: b(kc.users[0].user['client-key-data']) };
}

export const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2; };
