// Credentials are written whole or not at all: a crash mid-write must not leave a half file that
// the next start would read as a broken certificate or kubeconfig.

import { randomBytes } from 'node:crypto';
import { chmod, open, rename, rm } from 'node:fs/promises';

export async function writeFileAtomic(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const fh = await open(tmp, 'wx', mode);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    // the umask may have narrowed or (for 0644) kept the mode; set it exactly
    await chmod(tmp, mode);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
