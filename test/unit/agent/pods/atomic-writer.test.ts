// ConfigMap and Secret volumes as Kubernetes' atomic writer lays them out: the mount point never
// changes, `..data` always names a whole version, visible names are links through it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, mkdtemp, readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAtomically } from '../../../../src/agent/pods/atomic-writer.ts';

const file = (path: string, text: string, mode = 0o644) => ({ path, content: Buffer.from(text), mode });

test('files appear through ..data; an update swaps the version; the directory itself stays', async () => {
  const root = await mkdtemp(join(tmpdir(), 'orch-atomic-'));
  try {
    const dir = join(root, 'cfg');
    await writeAtomically(dir, [file('greeting', 'one'), file('sub/deep.txt', 'd', 0o600)], new Date('2026-11-25T05:06:07Z'));
    const dirInode = (await stat(dir)).ino;
    const first = await readlink(join(dir, '..data'));
    assert.match(first, /^\.\.2026_11_25_05_06_07\./);
    assert.equal(await readlink(join(dir, 'greeting')), '..data/greeting');
    assert.equal(await readlink(join(dir, 'sub')), '..data/sub');
    assert.equal(await readFile(join(dir, 'greeting'), 'utf8'), 'one');
    assert.equal((await stat(join(dir, 'sub/deep.txt'))).mode % 0o1000, 0o600);

    // the same payload again writes nothing
    await writeAtomically(dir, [file('greeting', 'one'), file('sub/deep.txt', 'd', 0o600)]);
    assert.equal(await readlink(join(dir, '..data')), first);

    // an update: new version, old one gone, a dropped key's name gone, the directory the same
    await writeAtomically(dir, [file('greeting', 'two')]);
    const second = await readlink(join(dir, '..data'));
    assert.notEqual(second, first);
    assert.equal(await readFile(join(dir, 'greeting'), 'utf8'), 'two');
    assert.equal((await stat(dir)).ino, dirInode, 'the mount point is never replaced');
    assert.deepEqual((await readdir(dir)).sort(), [second, '..data', 'greeting'].sort());
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a volume written as plain files before is taken over in place', async () => {
  const root = await mkdtemp(join(tmpdir(), 'orch-atomic-'));
  try {
    const dir = join(root, 'cfg');
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(dir);
    await writeFile(join(dir, 'greeting'), 'old');
    await writeAtomically(dir, [file('greeting', 'new')]);
    assert.ok((await lstat(join(dir, 'greeting'))).isSymbolicLink());
    assert.equal(await readFile(join(dir, 'greeting'), 'utf8'), 'new');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
