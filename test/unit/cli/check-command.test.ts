// `orch check watch`: its flags refused in the command's words, and the verdict as it prints it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCommand, formatReport } from '../../../src/cli/check-command.ts';
import { helpText } from '../../../src/cli/command.ts';
import type { WatchCheckReport } from '../../../src/cli/check-watch/session.ts';

const defaults = Object.fromEntries(Object.entries(checkCommand.flags).map(([k, f]) => [k, f.default]));
const run = (values: Record<string, unknown>, positionals = ['watch']) => checkCommand.run({ ...defaults, kubeconfig: '/nowhere', ...values } as Record<string, string>, positionals);

test('usage errors before anything is contacted', async () => {
  await assert.rejects(run({}, []), /usage: orch check watch --kubeconfig FILE/);
  await assert.rejects(run({}, ['lists']), /usage: orch check watch/);
  await assert.rejects(run({ resource: 'pods' }), /--resource must be one of configmaps, secrets, not "pods"/);
  await assert.rejects(run({ writers: '0' }), /--writers must be a whole number from 1 to 256, not "0"/);
  await assert.rejects(run({ watchers: 'many' }), /--watchers must be a whole number/);
  await assert.rejects(run({ duration: '0s' }), /--duration must be positive/);
  await assert.rejects(run({ duration: 'soon' }), (err: Error) => err.name === 'Error' && /soon/.test(err.message));
  await assert.rejects(run({ kubeconfig: '' }), /--kubeconfig is required/);
  assert.match(helpText(checkCommand), /--duration string +how long the writers write \(default "30s"\)/);
});

const report = (over: Partial<WatchCheckReport> = {}): WatchCheckReport => ({
  acknowledged: 120, uncertain: 0, events: 480, relists: 0, watchers: 4, finalObjects: 31, finalResourceVersion: '977', violations: [], ...over,
});

test('the verdict: PASS with the figures, FAIL with the kinds and the first differences', () => {
  assert.equal(formatReport(report()), 'PASS: every watcher saw every acknowledged change once, in order, and holds what the final list holds\n' +
    '  120 acknowledged writes, 0 with an unknown outcome; 4 watchers saw 480 events; final list: 31 objects at resourceVersion 977\n');
  const violations = Array.from({ length: 12 }, (_, i) => ({ kind: i ? 'missed' as const : 'lost-write' as const, watcher: i ? i % 4 : undefined, message: `m${i}` }));
  const text = formatReport(report({ violations, relists: 2 }));
  assert.match(text, /^FAIL: 12 violations \(lost-write: 1, missed: 11\)\n/);
  assert.match(text, /listed again 2 times after 410/);
  assert.match(text, /\n {2}- m0\n {2}- watcher 1: m1\n/);
  assert.match(text, /\n {2}\.\.\. and 2 more\n$/);
});
