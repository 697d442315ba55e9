// A missing tool skips a test on a developer's machine and fails it in CI, with the same reason,
// in both forms of the helper: a test's options and t.skip inside a running test. The fixture is
// a small test file run by node --test with and without CI=true.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const helper = resolve(import.meta.dirname, '../../support/requires.ts');

const fixture = `import { test, describe, before } from 'node:test';
import { requires, skipForMissing } from ${JSON.stringify(helper)};
test('present tool', requires(false), () => {});
test('needs kubectl', requires('kubectl 1.27 not installed at /nowhere/kubectl'), () => { throw new Error('ran without its tool'); });
describe('needs etcd', requires('etcd is not installed'), () => {
  before(() => { throw new Error('hooks ran without the tool'); });
  test('in the suite', () => { throw new Error('ran without its tool'); });
});
test('needs flock', t => { if (true) return t.skip(skipForMissing('flock (util-linux) not installed')); throw new Error('ran without its tool'); });
test('has flock', t => { const s = skipForMissing(false); if (s) t.skip(s); });
test('unrelated', () => {});
`;

function run(ci: string | undefined): { code: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'orch-requires-'));
  try {
    writeFileSync(join(dir, 'fixture.test.ts'), fixture);
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT; // the fixture runs as a test run of its own, not as part of this one
    if (ci === undefined) delete env.CI; else env.CI = ci;
    // the tap reporter prints each test's directive and error on lines of its own
    const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', join(dir, 'fixture.test.ts')], { env, encoding: 'utf8' });
    return { code: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('outside CI: a missing tool is a skip with its reason; a present one changes nothing', () => {
  for (const ci of [undefined, 'false', '1']) {
    const r = run(ci);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /ok \d+ - needs kubectl # SKIP kubectl 1\.27 not installed at \/nowhere\/kubectl/);
    assert.match(r.out, /ok \d+ - needs etcd # SKIP etcd is not installed/);
    assert.match(r.out, /ok \d+ - needs flock # SKIP flock \(util-linux\) not installed/);
    assert.match(r.out, /# pass 3\n/);
    assert.match(r.out, /# fail 0\n/);
    assert.doesNotMatch(r.out, /ran without its tool|hooks ran/);
  }
});

test('in CI (CI=true): each test needing a missing tool fails with the reason; the others still pass', () => {
  const r = run('true');
  assert.equal(r.code, 1, r.out);
  for (const [name, reason] of [['needs kubectl', 'kubectl 1.27 not installed at /nowhere/kubectl'], ['needs etcd', 'etcd is not installed'], ['needs flock', 'flock \\(util-linux\\) not installed']]) {
    assert.match(r.out, new RegExp(`not ok \\d+ - ${name}\\n[^]*?${reason} — CI installs every tool the tests need`), name);
  }
  for (const name of ['present tool', 'has flock', 'unrelated']) assert.match(r.out, new RegExp(`\\nok \\d+ - ${name}\\n`), name);
  assert.doesNotMatch(r.out, /ran without its tool|hooks ran/);
  assert.doesNotMatch(r.out, /# SKIP/);
});
