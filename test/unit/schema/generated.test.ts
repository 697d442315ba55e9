import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { definition, definitionForKind, referencedDefinitions } from '../../../src/schema/definitions.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../../..');
const reference = resolve(root, '../shared/reference/kubernetes-openapi-v2-release-1.36.json');

test('the generated tables are what scripts/gen-catalog.ts makes today', { skip: existsSync(reference) ? false : `reference document missing: ${reference}` }, () => {
  const out = mkdtempSync(join(tmpdir(), 'gen-catalog-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts/gen-catalog.ts'), out], { stdio: 'pipe' });
    for (const f of ['resources.ts', 'openapi-definitions.json']) {
      assert.equal(readFileSync(join(out, f), 'utf8'), readFileSync(join(root, 'src/schema/generated', f), 'utf8'), `${f} is stale: rerun the generator`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the generated TypeScript types are what scripts/gen-types.ts makes today', { skip: existsSync(reference) ? false : `reference document missing: ${reference}` }, () => {
  const out = mkdtempSync(join(tmpdir(), 'gen-types-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts/gen-types.ts'), join(out, 'types.ts')], { stdio: 'pipe' });
    assert.equal(readFileSync(join(out, 'types.ts'), 'utf8'), readFileSync(join(root, 'src/schema/generated/types.ts'), 'utf8'), 'types.ts is stale: rerun npm run gen');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the protobuf table, the JSON field order and the fields written unset are what scripts/gen-proto-table.ts makes today', { skip: existsSync(reference) ? false : `reference document missing: ${reference}` }, () => {
  const out = mkdtempSync(join(tmpdir(), 'gen-proto-'));
  try {
    const files = ['proto-messages.json', 'json-field-order.json', 'json-zero-fields.json'];
    execFileSync(process.execPath, [join(root, 'scripts/gen-proto-table.ts'), ...files.map(f => join(out, f))], { stdio: 'pipe' });
    for (const f of files) assert.equal(readFileSync(join(out, f), 'utf8'), readFileSync(join(root, 'src/schema/generated', f), 'utf8'), `${f} is stale: rerun npm run gen`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('scripts/extract-go-json-fields.ts reads json tags as Go\'s encoder treats them', { skip: existsSync(reference) ? false : `reference document missing: ${reference}` }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'go-fields-'));
  try {
    // a module laid out as k8s.io/api is, with one definition of the reference: core/v1 NodeDaemonEndpoints
    // and its DaemonEndpoint, and metav1.Time from a second module
    const core = join(dir, 'api/core/v1');
    const meta = join(dir, 'apimachinery/pkg/apis/meta/v1');
    mkdirSync(core, { recursive: true });
    mkdirSync(meta, { recursive: true });
    writeFileSync(join(meta, 'time.go'), 'package v1\n\ntype Time struct {\n\tx int\n}\n');
    writeFileSync(join(core, 'types.go'), [
      'package v1', '', 'import (', '\tmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"', ')', '',
      'type NodeDaemonEndpoints struct {', '\t// +optional', '\tKubeletEndpoint DaemonEndpoint `json:"kubeletEndpoint,omitempty" protobuf:"bytes,1,opt,name=kubeletEndpoint"`', '}', '',
      'type DaemonEndpoint struct {', '\tPort int32 `json:"Port"`', '\tSeen metav1.Time `json:"seen,omitempty"`', '\tGone *metav1.Time `json:"gone,omitempty"`', '\tName string `json:"name,omitempty"`', '}', '',
    ].join('\n'));
    const data = join(dir, 'out.json');
    execFileSync(process.execPath, [join(root, 'scripts/extract-go-json-fields.ts'), `${join(dir, 'api')}=k8s.io/api`, `${join(dir, 'apimachinery')}=k8s.io/apimachinery`, `--out=${data}`], { stdio: 'pipe' });
    const got = JSON.parse(readFileSync(data, 'utf8')) as Record<string, unknown>;
    // DaemonEndpoint's seen/gone/name are not in the reference's definition: only Port is kept
    assert.deepEqual(got['io.k8s.api.core.v1.DaemonEndpoint'], [['Port', '0']]);
    // a struct value is written although empty, with its own fields Go always writes (Seen as null)
    assert.deepEqual(got['io.k8s.api.core.v1.NodeDaemonEndpoints'], [['kubeletEndpoint', '{"Port":0,"seen":null}']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('definitions are found by name and by kind, with their references', () => {
  assert.equal(definitionForKind('', 'v1', 'Pod'), 'io.k8s.api.core.v1.Pod');
  assert.equal(definitionForKind('autoscaling', 'v1', 'Scale'), 'io.k8s.api.autoscaling.v1.Scale');
  assert.equal(definitionForKind('apps', 'v1', 'Nope'), undefined);
  assert.ok(definition('io.k8s.api.core.v1.PodSpec'));
  const reached = referencedDefinitions(['io.k8s.api.apps.v1.Deployment']);
  for (const name of ['io.k8s.api.apps.v1.DeploymentSpec', 'io.k8s.api.core.v1.Container', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.util.intstr.IntOrString']) {
    assert.ok(reached.has(name), name);
  }
  assert.ok(!reached.has('io.k8s.api.batch.v1.Job'));
});
