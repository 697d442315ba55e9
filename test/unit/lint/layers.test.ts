// The layer rules are enforced by the checker `npm run lint` runs: a forbidden import fails it,
// an allowed one passes. The fixtures are tiny trees in a temporary directory, checked with the
// project's own configuration.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const config = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

function check(files: Record<string, string>): { code: number; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'orch-lint-'));
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', type: 'module', dependencies: { yaml: '*' } }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', allowImportingTsExtensions: true, noEmit: true } }));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const r = spawnSync(process.execPath, [depcruise, 'src', '--config', config], { cwd: dir, encoding: 'utf8' });
    return { code: r.status ?? -1, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('an inner layer importing an outer one fails the check', () => {
  const r = check({
    'src/api/names.ts': "import { store } from '../registry/store.ts';\nexport const n = store;\n",
    'src/registry/store.ts': 'export const store = 1;\n',
  });
  assert.notEqual(r.code, 0, r.out);
  assert.match(r.out, /layer-api: src\/api\/names\.ts → src\/registry\/store\.ts/);
});

test('a controller reaching into the registry fails; through the client it passes', () => {
  const bad = check({
    'src/controllers/gc.ts': "import { s } from '../registry/store.ts';\nexport const x = s;\n",
    'src/registry/store.ts': 'export const s = 1;\n',
  });
  assert.notEqual(bad.code, 0);
  assert.match(bad.out, /clients-of-the-api/);
  const good = check({
    'src/controllers/gc.ts': "import { c } from '../client/rest.ts';\nexport const x = c;\n",
    'src/client/rest.ts': "import { n } from '../api/names.ts';\nexport const c = n;\n",
    'src/api/names.ts': 'export const n = 1;\n',
  });
  assert.equal(good.code, 0, good.out);
});

test('a pure layer touching the disk or the machine, or loading files by require, fails; a handler reaching storage fails', () => {
  const io = check({ 'src/codec/read.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n" });
  assert.notEqual(io.code, 0);
  assert.match(io.out, /pure-layers-no-io/);
  const os = check({ 'src/api/host.ts': "import { hostname } from 'os';\nexport const h = hostname;\n" });
  assert.notEqual(os.code, 0);
  assert.match(os.out, /pure-layers-no-io/);
  const req = check({ 'src/patch/load.ts': "import { createRequire } from 'node:module';\nexport const r = createRequire;\n" });
  assert.notEqual(req.code, 0);
  assert.match(req.out, /pure-layers-no-require/);
  const handler = check({
    'src/apiserver/handlers/get.ts': "import { s } from '../../storage/interface.ts';\nexport const g = s;\n",
    'src/storage/interface.ts': 'export const s = 1;\n',
  });
  assert.notEqual(handler.code, 0);
  assert.match(handler.out, /handlers-see-the-registry/);
});

test('the simulated runtime reaches the agent only for the CRI descriptor, and no other layer but api/', () => {
  const descriptor = {
    'src/agent/cri/descriptor.ts': 'export const d = 1;\n',
    'src/agent/cri/generated/cri-types.ts': 'export type T = number;\n',
    'src/api/clock.ts': 'export const c = 1;\n',
  };
  const good = check({
    ...descriptor,
    'src/runtime-sim/server.ts': "import { d } from '../agent/cri/descriptor.ts';\nimport type { T } from '../agent/cri/generated/cri-types.ts';\nimport { c } from '../api/clock.ts';\nexport const s: T = d + c;\n",
  });
  assert.equal(good.code, 0, good.out);
  for (const [target, from] of [['src/agent/pods/pod-syncer.ts', '../agent/pods/pod-syncer.ts'], ['src/client/rest.ts', '../client/rest.ts'], ['src/storage/interface.ts', '../storage/interface.ts']]) {
    const bad = check({ [target]: 'export const x = 1;\n', 'src/runtime-sim/server.ts': `import { x } from '${from}';\nexport const s = x;\n` });
    assert.notEqual(bad.code, 0, target);
    assert.match(bad.out, /runtime-sim-apart: src\/runtime-sim\/server\.ts → /, target);
  }
});

test('an import cycle fails the check', () => {
  const r = check({
    'src/api/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
    'src/api/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
  });
  assert.notEqual(r.code, 0);
  assert.match(r.out, /no-circular/);
});

test('the project itself passes', () => {
  const r = spawnSync(process.execPath, [depcruise, 'src', '--config', config], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
