import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { criServices } from '../../../src/agent/cri/descriptor.ts';
import { grpcAddress } from '../../../src/agent/cri/client.ts';

// the reference facts sit beside the repository on development machines, not in every clone
const referencePath = resolve(import.meta.dirname, '../../../../shared/reference/cri-api-v1.json');
const reference = existsSync(referencePath) ? JSON.parse(readFileSync(referencePath, 'utf8')).files[0] : undefined;
const generated = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../src/agent/cri/generated/cri-api.json'), 'utf8')).nested.runtime.nested.v1.nested;

test('the generated CRI table has every service method and message field of the reference', t => {
  if (!reference) return t.skip(`reference facts not found at ${referencePath}`);
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

test('the generated table loads into grpc-js services', () => {
  const services = criServices();
  for (const m of ['Version', 'RunPodSandbox', 'CreateContainer', 'ExecSync', 'CheckpointContainer', 'Status']) assert.ok((services.RuntimeService as any).service[m], m);
  for (const m of ['PullImage', 'ImageStatus', 'ListImages', 'RemoveImage']) assert.ok((services.ImageService as any).service[m], m);
});

test('endpoints as Kubernetes writes them become grpc-js addresses', () => {
  assert.equal(grpcAddress('unix:///run/containerd/containerd.sock'), 'unix:/run/containerd/containerd.sock');
  assert.equal(grpcAddress('/run/x.sock'), 'unix:/run/x.sock');
});

test('the generated table and types are what scripts/gen-cri-table.ts makes today', async t => {
  if (!reference) return t.skip(`reference facts not found at ${referencePath}`);
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const root = resolve(import.meta.dirname, '../../..');
  const out = mkdtempSync(join(tmpdir(), 'gen-cri-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts/gen-cri-table.ts'), join(out, 'cri-api.json')], { stdio: 'pipe' });
    assert.equal(readFileSync(join(out, 'cri-api.json'), 'utf8'), readFileSync(join(root, 'src/agent/cri/generated/cri-api.json'), 'utf8'), 'stale: rerun the generator');
    assert.equal(readFileSync(join(out, 'cri-types.ts'), 'utf8'), readFileSync(join(root, 'src/agent/cri/generated/cri-types.ts'), 'utf8'), 'stale: rerun the generator');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
