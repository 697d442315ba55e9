import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fnv32a, loadResourceState, resourceStateFile } from '../../../../src/agent/pods/resource-state.ts';

test('resource checkpoints: written whole with a checksum, read back, a tampered file ignored', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-state-'));
  try {
    assert.deepEqual(await loadResourceState(dir, 'allocated_pods_state'), {}, 'no file yet');
    const f = await resourceStateFile(dir, 'allocated_pods_state');
    f.set('uid-1', { app: { requests: { cpu: '100m' }, limits: { memory: '64Mi' } } });
    f.set('uid-2', { web: { requests: { cpu: '1' } } });
    f.remove('uid-2');
    await f.flush();
    const text = await readFile(join(dir, 'allocated_pods_state'), 'utf8');
    const doc = JSON.parse(text);
    assert.equal(doc.checksum, fnv32a(JSON.stringify(doc.data)));
    assert.deepEqual(await loadResourceState(dir, 'allocated_pods_state'), { 'uid-1': { app: { requests: { cpu: '100m' }, limits: { memory: '64Mi' } } } });
    // a second instance (an agent restart) starts from the file
    const again = await resourceStateFile(dir, 'allocated_pods_state');
    again.set('uid-3', { x: {} });
    await again.flush();
    assert.deepEqual(Object.keys(await loadResourceState(dir, 'allocated_pods_state')).sort(), ['uid-1', 'uid-3']);
    await writeFile(join(dir, 'allocated_pods_state'), text.replace('100m', '900m'));
    assert.deepEqual(await loadResourceState(dir, 'allocated_pods_state'), {}, 'checksum mismatch');
    assert.equal(fnv32a(''), 0x811c9dc5);
    assert.equal(fnv32a('a'), 0xe40c292c);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
