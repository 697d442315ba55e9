// `orch up` on its own containerd takes host-wide things: the `orch0` bridge, the pods' subnet
// (each data dir's IPAM hands out the same first addresses) and the service proxy's rules for
// 10.96.0.1, the `kubernetes` Service every cluster has. Two such clusters at once (test files
// run two at a time) would answer each other's pods, so the tests that start one take this lock
// first; it is a directory made atomically, with its holder's pid, taken over from a dead holder.

import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';

const lockDir = '/tmp/orch-test-host-network.lock';

const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; } };

/** waits for the lock (up to `timeoutMs`); resolves to its release */
export async function holdHostNetwork(timeoutMs = 600_000): Promise<() => Promise<void>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lockDir);
      await writeFile(`${lockDir}/pid`, String(process.pid));
      let released = false;
      return async () => { if (!released) { released = true; await rm(lockDir, { recursive: true, force: true }); } };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(await readFile(`${lockDir}/pid`, 'utf8').catch(() => ''));
    // a holder that died, or one that made the directory and never wrote its pid, leaves it
    const made = await stat(lockDir).then(s => s.mtimeMs, () => Date.now());
    if ((holder && !alive(holder)) || (!holder && Date.now() - made > 10_000)) await rm(lockDir, { recursive: true, force: true });
    if (Date.now() > end) throw new Error(`the host network lock ${lockDir} is still held by pid ${holder || 'unknown'}`);
    await new Promise(r => setTimeout(r, 100));
  }
}
