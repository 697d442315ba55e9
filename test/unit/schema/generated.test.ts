import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
