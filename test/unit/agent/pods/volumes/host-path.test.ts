// hostPath volumes: each type checked as the kubelet checks it, in its words, as FailedMount
// events; the *OrCreate types create what is missing (a FileOrCreate's parent excepted).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { prepareVolumes } from '../../../../../src/agent/pods/volumes.ts';
import { failedMount, objectSource, pod, withRoot } from './support.ts';

const objects = objectSource();
const hostPath = (root: string, path: string, type?: string) => prepareVolumes(pod([{ name: 'h', hostPath: { path, ...(type !== undefined ? { type } : {}) } }]), root, objects);
const failed = (why: string) => failedMount([`MountVolume.SetUp failed for volume "h" : ${why}`]);

test('hostPath: Directory, File, Socket, CharDevice and BlockDevice pass on their own type only', async () => withRoot(async root => {
  const dir = join(root, 'd'), file = join(root, 'f'), sock = join(root, 's.sock');
  await mkdir(dir);
  await writeFile(file, 'x');
  const server = createServer();
  await new Promise<void>(r => server.listen(sock, r));
  try {
    assert.deepEqual((await hostPath(root, dir, 'Directory')).get('h'), { hostPath: dir, readOnly: false });
    assert.equal((await hostPath(root, file, 'File')).get('h')!.hostPath, file);
    assert.equal((await hostPath(root, sock, 'Socket')).get('h')!.hostPath, sock);
    assert.equal((await hostPath(root, '/dev/null', 'CharDevice')).get('h')!.hostPath, '/dev/null');
    await assert.rejects(hostPath(root, file, 'Directory'), failed(`hostPath type check failed: ${file} is not a directory`));
    await assert.rejects(hostPath(root, dir, 'File'), failed(`hostPath type check failed: ${dir} is not a file`));
    await assert.rejects(hostPath(root, file, 'Socket'), failed(`hostPath type check failed: ${file} is not a socket file`));
    await assert.rejects(hostPath(root, file, 'CharDevice'), failed(`hostPath type check failed: ${file} is not a character device`));
    await assert.rejects(hostPath(root, '/dev/null', 'BlockDevice'), failed('hostPath type check failed: /dev/null is not a block device'));
    await assert.rejects(hostPath(root, join(root, 'missing'), 'Directory'), failed(`hostPath type check failed: ${join(root, 'missing')} is not a directory`));
  } finally {
    server.close();
  }
}));

test('hostPath: DirectoryOrCreate makes the directories (0755), FileOrCreate an empty file (0644) but not its parent', async () => withRoot(async root => {
  await hostPath(root, join(root, 'made/deep'), 'DirectoryOrCreate');
  const d = await stat(join(root, 'made/deep'));
  assert.ok(d.isDirectory());
  assert.equal(d.mode & 0o777, 0o755 & ~process.umask());
  await hostPath(root, join(root, 'new-file'), 'FileOrCreate');
  const f = await stat(join(root, 'new-file'));
  assert.ok(f.isFile() && f.size === 0);
  assert.equal(f.mode & 0o777, 0o644 & ~process.umask());
  // what exists already must be of the type
  await assert.rejects(hostPath(root, join(root, 'new-file'), 'DirectoryOrCreate'), failed(`hostPath type check failed: ${join(root, 'new-file')} is not a directory`));
  await assert.rejects(hostPath(root, join(root, 'made'), 'FileOrCreate'), failed(`hostPath type check failed: ${join(root, 'made')} is not a file`));
  await assert.rejects(hostPath(root, join(root, 'no-parent/file'), 'FileOrCreate'), failed(`open ${join(root, 'no-parent/file')}: no such file or directory`));
}));

test('hostPath: no type means no check; an unknown type and a path with .. are refused', async () => withRoot(async root => {
  assert.equal((await hostPath(root, join(root, 'anything'))).get('h')!.hostPath, join(root, 'anything'));
  assert.equal((await hostPath(root, join(root, 'anything'), '')).get('h')!.hostPath, join(root, 'anything'));
  await assert.rejects(hostPath(root, root, 'Sideways'), failed('Sideways is an invalid volume type'));
  await assert.rejects(hostPath(root, `${root}/../etc`, 'Directory'), failed(`invalid HostPath \`${root}/../etc\`: must not contain '..'`));
}));
