import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointChecksum, checkpointData, checkpointFile, fnv32a, loadResourceState, parseCheckpointFile, resourceStateFile } from '../../../../src/agent/pods/resource-state.ts';

// a V1 allocation checkpoint as the kubelet's own tests hold one (its checksum computed by Go)
const kubeletFile = '{"data":"{\\"entries\\":{\\"pod1\\":{\\"ContainerResources\\":{\\"container1\\":{\\"requests\\":{\\"cpu\\":\\"1Ki\\",\\"memory\\":\\"1Ki\\"}}}}}}","checksum":1178570812}';

test('the checksum is the kubelet\'s: FNV-32a of the data as go-spew prints a string', () => {
  assert.equal(fnv32a(''), 0x811c9dc5);
  assert.equal(fnv32a('a'), 0xe40c292c);
  assert.equal(checkpointChecksum('{"entries":{"pod1":{"ContainerResources":{"container1":{"requests":{"cpu":"1Ki","memory":"1Ki"}}}}}}'), 1178570812);
  assert.deepEqual(parseCheckpointFile(kubeletFile), { pod1: { container1: { requests: { cpu: '1Ki', memory: '1Ki' } } } });
});

test('the data is written as Go encodes PodResourceCheckpointInfo: sorted keys, limits before requests, canonical quantities', () => {
  assert.equal(checkpointData({}), '{}', 'entries are omitted when empty');
  const data = checkpointData({
    'uid-b': { web: { requests: { memory: '1024Mi', cpu: '0.5' }, limits: { cpu: '1000m' } } },
    'uid-a': { z: {}, a: { requests: { cpu: '100m' } } },
  });
  assert.equal(data, '{"entries":{"uid-a":{"ContainerResources":{"a":{"requests":{"cpu":"100m"}},"z":{}},"PodLevelResources":null},'
    + '"uid-b":{"ContainerResources":{"web":{"limits":{"cpu":"1"},"requests":{"cpu":"500m","memory":"1Gi"}}},"PodLevelResources":null}}}');
  const file = checkpointFile({ p: { c: { requests: { cpu: '1' } } } });
  const doc = JSON.parse(file);
  assert.deepEqual(Object.keys(doc), ['data', 'checksum']);
  assert.equal(doc.checksum, checkpointChecksum(doc.data));
});

test('a corrupt file is refused in the kubelet\'s words, naming the file to delete', async () => {
  assert.throws(() => parseCheckpointFile(kubeletFile.replace('1Ki\\",\\"memory', '2Ki\\",\\"memory')), /^Error: checkpoint is corrupted$/);
  assert.throws(() => parseCheckpointFile('{"data":{"entries":{}},"checksum":1}'), /cannot unmarshal object into Go struct field Checkpoint.data of type string/);
  const dir = await mkdtemp(join(tmpdir(), 'agent-records-state-'));
  try {
    await writeFile(join(dir, 'actuated_pods_state'), kubeletFile.replace('"checksum":1178570812', '"checksum":1'));
    await assert.rejects(loadResourceState(dir, 'actuated_pods_state'), (err: Error) => {
      assert.equal(err.message, `could not restore state from checkpoint: checkpoint is corrupted, please drain this node and delete pod resource information checkpoint file "${join(dir, 'actuated_pods_state')}" before restarting Kubelet`);
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('resource checkpoints: written whole, read back by the next instance (an agent restart), a kubelet file adopted', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agent-records-state-'));
  try {
    assert.deepEqual(await loadResourceState(dir, 'allocated_pods_state'), {}, 'no file yet');
    const f = await resourceStateFile(dir, 'allocated_pods_state');
    f.set('uid-1', { app: { requests: { cpu: '100m' }, limits: { memory: '64Mi' } } });
    f.set('uid-2', { web: { requests: { cpu: '1' } } });
    f.remove('uid-2');
    await f.flush();
    const text = await readFile(join(dir, 'allocated_pods_state'), 'utf8');
    assert.equal(text, checkpointFile({ 'uid-1': { app: { requests: { cpu: '100m' }, limits: { memory: '64Mi' } } } }));
    const again = await resourceStateFile(dir, 'allocated_pods_state');
    assert.deepEqual(again.get('uid-1'), { app: { requests: { cpu: '100m' }, limits: { memory: '64Mi' } } });
    again.set('uid-3', { x: {} });
    await again.flush();
    assert.deepEqual(Object.keys(await loadResourceState(dir, 'allocated_pods_state')).sort(), ['uid-1', 'uid-3']);

    await writeFile(join(dir, 'actuated_pods_state'), kubeletFile);
    const adopted = await resourceStateFile(dir, 'actuated_pods_state');
    assert.deepEqual(adopted.get('pod1'), { container1: { requests: { cpu: '1Ki', memory: '1Ki' } } });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
