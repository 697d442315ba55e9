// A pod's fsGroup on its managed volumes, as the kubelet's SetVolumeOwnership applies it: the
// group on everything, files group-readable (and writable where the volume is), directories
// setgid; an emptyDir once, atomic volumes after each write without rewriting unchanged contents;
// hostPath left alone; the fsGroup among the container's supplemental groups.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chown, lstat, readlink, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareVolumes } from '../../../../../src/agent/pods/volumes.ts';
import { containerConfig } from '../../../../../src/agent/pods/cri-config.ts';
import type { Pod } from '../../../../../src/agent/pods/types.ts';
import { asRoot, objectSource, pod, withRoot } from './support.ts';

const withFsGroup = (p: Pod) => { p.spec.securityContext = { fsGroup: 2000, supplementalGroups: [3000] }; return p; };

test('fsGroup: volumes the agent manages take the group and group access; hostPath keeps its own', asRoot, async () => withRoot(async root => {
  const p = withFsGroup(pod([
    { name: 's', secret: { secretName: 'sec', defaultMode: 0o400 } },
    { name: 'c', configMap: { name: 'cfg', items: [{ key: 'color', path: 'color', mode: 0o600 }] } },
    { name: 'e', emptyDir: {} },
    { name: 'h', hostPath: { path: root } },
  ]));
  const vols = await prepareVolumes(p, root, objectSource());
  const st = (v: string, f = '') => stat(join(vols.get(v)!.hostPath, f));
  assert.deepEqual([(await st('s', 'token')).gid, (await st('s', 'token')).mode & 0o7777], [2000, 0o440]);
  assert.deepEqual([(await st('c', 'color')).gid, (await st('c', 'color')).mode & 0o7777], [2000, 0o640], 'read-only volumes get group read only');
  assert.deepEqual([(await st('e')).gid, (await st('e')).mode & 0o7777], [2000, 0o2777]);
  assert.equal((await lstat(join(vols.get('s')!.hostPath, 'token'))).gid, 2000, 'links too');
  assert.equal((await stat(root)).gid, 0, 'the hostPath is the host\'s');
  // the next sync writes no new version (modes differ from the payload's only by the fsGroup) and leaves the emptyDir's new files alone
  const version = await readlink(join(vols.get('s')!.hostPath, '..data'));
  await writeFile(join(vols.get('e')!.hostPath, 'made-by-container'), 'x');
  assert.equal((await st('e', 'made-by-container')).gid, 2000, 'new files inherit the group through setgid');
  await chown(join(vols.get('e')!.hostPath, 'made-by-container'), 0, 0);
  await prepareVolumes(p, root, objectSource());
  assert.equal(await readlink(join(vols.get('s')!.hostPath, '..data')), version);
  assert.equal((await st('e', 'made-by-container')).gid, 0);
}));

test('the fsGroup is the container\'s first supplemental group, then the pod\'s own', () => {
  const p = withFsGroup(pod([]));
  const cc = containerConfig({ pod: p, container: p.spec.containers[0]!, restartCount: 0, envs: [], mounts: [] });
  assert.deepEqual(cc.linux!.securityContext!.supplementalGroups, [2000, 3000]);
});
