// A pod's fsGroup applied to the volumes the kubelet manages (emptyDir, ConfigMap, Secret,
// downward API, projected), as its SetVolumeOwnership does: every file and directory given the
// group, files group-readable and writable (only readable in read-only volumes), directories
// also group-searchable with the setgid bit so that new files inherit the group. Links are given
// the group but not a mode. An emptyDir is walked once, when it is made (so fsGroupChangePolicy,
// which only spares walks of volumes already set up, changes nothing here); atomic volumes after
// each write, whatever the policy, as the kubelet does.

import { chmod, lchown, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const rw = 0o660, ro = 0o440, search = 0o110, setgid = 0o2000;

function wantedMode(mode: number, dir: boolean, readOnly: boolean): number {
  let mask = readOnly ? ro : rw;
  if (dir) mask |= search | setgid;
  return (mode & 0o7777) | mask;
}

export async function applyFsGroup(root: string, fsGroup: number, readOnly: boolean): Promise<void> {
  const walk = async (p: string): Promise<void> => {
    const st = await lstat(p);
    await lchown(p, -1, fsGroup);
    if (st.isSymbolicLink()) return;
    const mode = wantedMode(st.mode, st.isDirectory(), readOnly);
    if (mode !== (st.mode & 0o7777)) await chmod(p, mode);
    if (st.isDirectory()) for (const name of await readdir(p)) await walk(join(p, name));
  };
  await walk(root);
}
