// A missing tool skips a test on a developer's machine and fails it in CI.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const helper = join(resolve(import.meta.dirname, '../../support'), 'requires.ts');
const probe = `import { skipForMissing } from ${JSON.stringify(helper)};
console.log(JSON.stringify([skipForMissing(false), skipForMissing(undefined), skipForMissing('flock not installed')]));`;

function run(ci: string | undefined) {
  const env = { ...process.env };
  if (ci === undefined) delete env.CI; else env.CI = ci;
  return spawnSync(process.execPath, ['--input-type=module', '-e', probe], { env, encoding: 'utf8' });
}

test('outside CI: a missing tool is a skip with its reason; a present one is no skip', () => {
  const r = run(undefined);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), [false, false, 'flock not installed']);
});

test('in CI (CI=true): a missing tool is an error naming it', () => {
  const r = run('true');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /flock not installed — CI installs every tool the tests need/);
});
