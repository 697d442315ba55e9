// Where `orch up` keeps things: the data dir (database, certificates, the agent's and
// containerd's roots) under the user's state directory unless --data-dir says otherwise, and a
// run dir for sockets and containerd's state, short enough for a socket path and gone at reboot.
// `up.json` in the data dir tells `orch images import` which runtime the running cluster uses.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state'), 'orch');
}

export function runDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 8);
  if (process.getuid?.() === 0) return join('/run/orch', id);
  return join(env['XDG_RUNTIME_DIR'] || tmpdir(), `orch-${process.getuid?.() ?? 0}-${id}`);
}

export interface UpState {
  pid: number;
  /** containerd: orch's own, whose socket `address` ctr can use; external: a socket given to it; sim: the simulated runtime */
  runtime: 'containerd' | 'external' | 'sim';
  endpoint: string;
  address?: string;
}

export const upStateFile = (dataDir: string) => join(dataDir, 'up.json');

/** what a running `orch up` on the data dir wrote, if it is still running */
export async function readUpState(dataDir: string): Promise<UpState | undefined> {
  const text = await readFile(upStateFile(dataDir), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const state = JSON.parse(text) as UpState;
  try {
    process.kill(state.pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return state;
}
