// `orch server`'s own logs on stderr as Kubernetes components write them: klog's text lines by
// default, component-base's JSON lines with --logging-format=json, with -v=1 letting info
// through; the audit log stays JSON lines whatever the log format.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';

const klogLine = /^([IWE])(\d{4}) (\d\d:\d\d:\d\d\.\d{6}) +(\d+) ([\w.-]+\.ts):(\d+)\] ("(?:[^"\\]|\\.)*")(.*)$/;

test('logs: klog text by default, JSON with --logging-format=json; the audit log stays JSON', async t => {
  let orch: OrchProcess | undefined;
  t.after(async () => { await orch?.stop(); await orch?.cleanup(); });
  orch = await startOrch({ args: ['-v=1'] });
  const dataDir = orch.dataDir;
  const ready = (o: OrchProcess, pattern: RegExp) => until('the server-ready log line', async () => pattern.test(o.stderr()), 20_000, 50);
  await ready(orch, /"server ready"/);
  const text = orch.stderr().split('\n').filter(l => l !== '');
  const pid = String(orch.child.pid);
  // a line is a header and a quoted message, or a continuation of a multi-line value
  const headed = text.map(l => klogLine.exec(l)).filter(m => m !== null);
  assert.ok(headed.length > 3, text.join('\n'));
  for (const m of headed) assert.equal(m[4], pid, 'the pid where Go prints the thread id');
  const readyLine = headed.find(m => m[7] === '"server ready"')!;
  assert.deepEqual([readyLine[1], readyLine[5]], ['I', 'start.ts']);
  assert.match(readyLine[8]!, /^ url="https:\/\/127\.0\.0\.1:\d+" ms=\d+$/);
  assert.equal(text.filter(l => l.startsWith('{')).length, 0, 'no JSON lines');
  await orch.stop();

  const policy = join(dataDir, 'audit-policy.yaml');
  await writeFile(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
  const auditLog = join(dataDir, 'audit.log');
  orch = await startOrch({ dataDir, args: ['--logging-format=json', '--v', '1', `--audit-policy-file=${policy}`, `--audit-log-path=${auditLog}`] });
  await ready(orch, /"msg":"server ready"/);
  const lines = orch.stderr().split('\n').filter(l => l !== '').map(l => JSON.parse(l));
  const entry = lines.find(l => l.msg === 'server ready');
  assert.deepEqual(Object.keys(entry).slice(0, 4), ['ts', 'caller', 'msg', 'v']);
  assert.equal(entry.v, 1);
  assert.match(entry.caller, /^apiserver\/start\.ts:\d+$/);
  assert.ok(Math.abs(entry.ts - Date.now()) < 60_000, 'ts is Unix time in milliseconds');
  // the controllers in the server are clients of the API: their requests are audited
  const events = await until('audit events', async () => {
    const written = (await readFile(auditLog, 'utf8').catch(() => '')).split('\n').filter(l => l !== '');
    return written.length > 0 && written.map(l => JSON.parse(l));
  }, 10_000, 50);
  assert.equal(events[0].kind, 'Event');
  assert.equal(events[0].apiVersion, 'audit.k8s.io/v1');
});
