import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointName, checksum, CorruptCheckpointError, decodeCheckpoint, encodeCheckpoint, readCheckpoint, writeCheckpoint } from '../../../../src/agent/devices/checkpoint.ts';
import { decodeContainerResponse, encodeContainerResponse } from '../../../../src/agent/devices/protos.ts';
import { fromEntries, toEntries } from '../../../../src/agent/devices/pod-devices.ts';

// files a kubelet wrote, as published (a GPU node with no pods; a Jetson board with one pod)
const noPods = '{"Data":{"PodDeviceEntries":null,"RegisteredDevices":{"nvidia.com/gpu":["GPU-0650a168-e770-3ea8-8ac3-8a1d419763e0"]}},"Checksum":3952659280}';
const onePod = '{"Data":{"PodDeviceEntries":[{"PodUID":"bf52b2cd-b611-4e79-86b1-280b283185c3","ContainerName":"check","ResourceName":"nvidia.com/gpu","DeviceIDs":{"-1":["tegra"]},"AllocResp":"Ch8KFk5WSURJQV9WSVNJQkxFX0RFVklDRVMSBXRlZ3Jh"}],"RegisteredDevices":{"nvidia.com/gpu":["tegra"]}},"Checksum":3660592824}';

test('kubelet-written checkpoints: the checksum agrees, and writing the data again gives the same bytes', () => {
  for (const file of [noPods, onePod]) {
    const data = decodeCheckpoint(file);
    assert.equal(checksum(data), JSON.parse(file).Checksum);
    assert.equal(encodeCheckpoint(data), file);
  }
});

test('a changed byte is a corrupt checkpoint', () => {
  assert.throws(() => decodeCheckpoint(onePod.replace('"check"', '"chek"')), CorruptCheckpointError);
  assert.throws(() => decodeCheckpoint(noPods.replace('3952659280', '3952659281')), /checkpoint is corrupted/);
});

test('AllocResp is the ContainerAllocateResponse protobuf: decoded, and encoded back to the same bytes', () => {
  const bytes = Buffer.from(JSON.parse(onePod).Data.PodDeviceEntries[0].AllocResp, 'base64');
  const resp = decodeContainerResponse(bytes);
  assert.deepEqual(resp.envs, { NVIDIA_VISIBLE_DEVICES: 'tegra' });
  assert.deepEqual(encodeContainerResponse(resp), bytes);
  const pd = fromEntries(decodeCheckpoint(onePod).PodDeviceEntries);
  assert.deepEqual(toEntries(pd), decodeCheckpoint(onePod).PodDeviceEntries);
});

test('NUMA keys as Go orders them; HTML characters escaped as Go escapes them; written and read back', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'devices-cp-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const data = {
    PodDeviceEntries: [{ PodUID: 'u1', ContainerName: 'c', ResourceName: 'example.com/dev', DeviceIDs: { '10': ['d10'], '-1': ['x<y'], '2': ['d2'] }, AllocResp: encodeContainerResponse({ envs: { A: '1' }, mounts: [], devices: [{ containerPath: '/dev/x', hostPath: '/dev/x', permissions: 'rw' }], annotations: {}, cdiDevices: [] }).toString('base64') }],
    RegisteredDevices: { 'example.com/dev': ['d2', 'd10'], 'b.example.com/other': [] },
  };
  await writeCheckpoint(dir, data);
  const text = await readFile(join(dir, checkpointName), 'utf8');
  assert.match(text, /"DeviceIDs":\{"-1":\["x\\u003cy"\],"10":\["d10"\],"2":\["d2"\]\}/);
  assert.match(text, /"RegisteredDevices":\{"b\.example\.com\/other":\[\],"example\.com\/dev":\["d2","d10"\]\}/);
  assert.deepEqual(await readCheckpoint(dir), data);
  await writeFile(join(dir, checkpointName), text.replace('"d2"', '"d3"'));
  await assert.rejects(readCheckpoint(dir), CorruptCheckpointError);
  assert.equal(await readCheckpoint(join(dir, 'none')), undefined);
});
