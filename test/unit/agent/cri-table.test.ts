import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { criServices } from '../../../src/agent/cri/descriptor.ts';
import { grpcAddress } from '../../../src/agent/cri/client.ts';

const reference = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../../shared/reference/cri-api-v1.json'), 'utf8')).files[0];
const generated = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../src/agent/cri/generated/cri-api.json'), 'utf8')).nested.runtime.nested.v1.nested;

test('the generated CRI table has every service method and message field of the reference', () => {
  const services = criServices();
  for (const s of reference.services) {
    const methods = Object.keys((services as any)[s.name].service);
    assert.deepEqual(methods.sort(), s.rpcs.map((r: any) => r.name).sort(), s.name);
  }
  for (const m of reference.messages) {
    const fields = generated[m.name].fields;
    assert.equal(Object.keys(fields).length, m.fields.length, m.name);
    assert.deepEqual(Object.values(fields).map((f: any) => f.id).sort((a: number, b: number) => a - b), m.fields.map((f: any) => f.number).sort((a: number, b: number) => a - b), m.name);
  }
  assert.equal(generated.LinuxPodSandboxConfig.fields.sysctls.keyType, 'string', 'maps keep their key type');
  assert.deepEqual(Object.keys(generated.SecurityProfile.nested.ProfileType.values), ['RuntimeDefault', 'Unconfined', 'Localhost']);
  assert.equal(generated.VersionResponse.fields.runtimeApiVersion.id, 4);
});

test('endpoints as Kubernetes writes them become grpc-js addresses', () => {
  assert.equal(grpcAddress('unix:///run/containerd/containerd.sock'), 'unix:/run/containerd/containerd.sock');
  assert.equal(grpcAddress('/run/x.sock'), 'unix:/run/x.sock');
});
