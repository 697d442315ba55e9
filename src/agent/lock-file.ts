// --lock-file: one agent per lock path. The lock is a real flock(2) held by a small `flock`
// child process whose stdin is a pipe from the agent: when the agent exits for any reason,
// kill -9 included, the pipe closes, the child exits and the kernel drops the lock, so a stale
// lock can never block the next agent. (Node has no flock of its own.)
//
// With --exit-on-lock-contention a newcomer waits for the lock instead of failing, and tells
// the holder by touching the file; a holder started with the flag watches the file and steps
// aside when touched, as the kubelet does with inotify.

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, utimesSync, watch, type FSWatcher } from 'node:fs';

export interface LockFileOptions {
  /** wait for the lock (announcing ourselves to the holder) instead of failing at once */
  exitOnContention?: boolean;
  /** called in the holder when another agent asks for the lock (with exitOnContention) */
  onContention?: () => void;
}

export interface HeldLock { release(): Promise<void> }

export class LockContentionError extends Error {}

export async function acquireLockFile(path: string, opts: LockFileOptions = {}): Promise<HeldLock> {
  closeSync(openSync(path, 'a', 0o600));
  if (opts.exitOnContention) {
    // the holder's watcher fires on this attribute change
    const now = new Date();
    utimesSync(path, now, now);
  }
  const args = [...(opts.exitOnContention ? [] : ['--nonblock']), '--exclusive', '--conflict-exit-code', '75', path, '-c', 'echo locked; read -r _'];
  const child: ChildProcess = spawn('flock', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<number | null>(r => child.once('exit', code => r(code)));
  const got = await new Promise<boolean>((resolve, reject) => {
    child.once('error', e => reject(new Error(`unable to run flock for the lock file "${path}": ${e.message}`)));
    child.stdout!.once('data', () => resolve(true));
    void exited.then(code => (code === 75 ? resolve(false) : reject(new Error(`unable to acquire the lock file "${path}": flock exited with ${code}: ${err.trim()}`))));
  });
  if (!got) throw new LockContentionError(`unable to acquire the lock file "${path}": another agent holds it`);
  // the lock must not keep the process alive on its own
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stderr as unknown as { unref?: () => void }).unref?.();

  let watcher: FSWatcher | undefined;
  if (opts.exitOnContention && opts.onContention) {
    const fire = opts.onContention;
    // our own touch above may still be delivered; only later changes are another agent
    const since = Date.now() + 50;
    watcher = watch(path, () => { if (Date.now() > since) { watcher?.close(); fire(); } });
    watcher.unref();
  }
  return {
    async release() {
      watcher?.close();
      child.stdin!.end();
      // the bound is cleared once the holder has exited: left running it kept the caller's process alive 2 s more
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise(r => { bound = setTimeout(r, 2000); })]);
      clearTimeout(bound);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
