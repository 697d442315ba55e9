// A certificate and its key as the two files `<name>.crt` and `<name>.key` in a directory, the
// layout kubeadm uses for the cluster CA, the front-proxy CA and their leaf certificates.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import type { CertAndKey } from './certs.ts';

/** the pair, or undefined when either file is missing */
export async function readPair(dir: string, name: string): Promise<CertAndKey | undefined> {
  try {
    const [cert, key] = await Promise.all([readFile(join(dir, `${name}.crt`), 'utf8'), readFile(join(dir, `${name}.key`), 'utf8')]);
    return { cert, key };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function savePair(dir: string, name: string, pair: CertAndKey): Promise<void> {
  // key first: a crash between the two leaves a mismatched pair, which the next start reissues
  await writeFileAtomic(join(dir, `${name}.key`), pair.key, 0o600);
  await writeFileAtomic(join(dir, `${name}.crt`), pair.cert, 0o644);
}
