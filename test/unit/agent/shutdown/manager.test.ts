import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../src/api/log.ts';
import { startShutdownManager } from '../../../../src/agent/shutdown/manager.ts';
import type { Logind } from '../../../../src/agent/shutdown/logind.ts';
import { shutdownPeriods } from '../../../../src/agent/shutdown/plan.ts';
import { readShutdownState } from '../../../../src/agent/shutdown/state-file.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';
import { fakeClock } from '../fake-clock.ts';

const pod = (name: string, priority = 0, terminationGracePeriodSeconds = 30): Pod =>
  ({ metadata: { name, namespace: 'default', uid: name }, spec: { containers: [], priority, terminationGracePeriodSeconds } }) as Pod;

// JSON lines as component-base writes them: a warning is a V(0) line ("v":0), an error has no "v"
function captureLog() {
  const lines: Array<Record<string, unknown>> = [];
  return { log: createLogger('debug', l => lines.push(JSON.parse(l)), { format: 'json' }), lines };
}

/** logind as the manager sees it: the delay, the drop-in raise, the locks held, the signal */
function fakeLogind(delayMs: number, raiseTo?: number) {
  const events: string[] = [];
  let held = 0;
  let signal: ((active: boolean) => void) | undefined;
  let lost: (() => void) | undefined;
  const logind: Logind = {
    inhibitDelayMaxMs: async () => delayMs,
    raiseInhibitDelay: async s => { events.push(`raise ${s}`); if (raiseTo !== undefined) delayMs = raiseTo; },
    inhibitShutdown: async () => { held++; events.push('lock'); return { release: async () => { held--; events.push('release'); } }; },
    onPrepareForShutdown: async l => { signal = l; },
    onClose: l => { lost = l; },
    close: () => { events.push('close'); },
  };
  return { logind, events, held: () => held, emit: (active: boolean) => signal!(active), lose: () => lost!() };
}

test('shutdown manager: delay raised, lock held; a shutdown ends pods range by range within the periods, writes the state file, releases the lock; a cancel takes it again', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'node-shutdown-unit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const clock = fakeClock();
  const fl = fakeLogind(5000, 30_000);
  const { log } = captureLog();
  const pods = [pod('app'), pod('quick', 0, 3), pod('critical', 2_000_001_000), pod('done', 0)];
  const failed: Array<{ name: string; grace: number; at: number; reason: string }> = [];
  let syncs = 0;
  const m = startShutdownManager({
    periods: shutdownPeriods({ shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' }),
    rootDir: dir, logind: { address: 'unix:path=/nowhere', dropInDir: dir }, connect: async () => fl.logind,
    pods: () => pods.filter(p => p.metadata.name !== 'done'),
    // 'app' never stops by itself: its range ends by its period; the others stop at once
    fail: (p, grace, why) => { failed.push({ name: p.metadata.name, grace, at: clock.now(), reason: why.reason }); return p.metadata.name === 'app' ? new Promise(() => {}) : Promise.resolve(); },
    syncNodeStatus: () => { syncs++; },
    clock, log,
  });
  await m.started;
  assert.deepEqual(fl.events, ['raise 30', 'lock']);
  assert.equal(m.shuttingDown(), false);
  assert.equal(m.admit(pod('new')), undefined);

  const t0 = clock.now();
  fl.emit(true);
  assert.equal(m.shuttingDown(), true);
  assert.equal(syncs, 1);
  assert.deepEqual(m.admit(pod('new')), { reason: 'NodeShutdown', message: 'Pod was rejected as the node is shutting down.' });
  // the state file is written first (real file I/O), then the pods of the lowest range are ended
  for (let i = 0; i < 200 && failed.length < 2; i++) await new Promise(r => setTimeout(r, 5));
  assert.deepEqual(failed.map(f => [f.name, f.grace, f.at - t0, f.reason]), [['app', 20, 0, 'Terminated'], ['quick', 3, 0, 'Terminated']]);
  assert.equal((await readShutdownState(dir))?.endTime, '0001-01-01T00:00:00Z');
  await clock.advance(19_999);
  assert.equal(failed.length, 2, 'the critical range waits for the regular range\'s period');
  await clock.advance(1);
  for (let i = 0; i < 200 && failed.length < 3; i++) await new Promise(r => setTimeout(r, 5));
  await clock.advance(0);
  await m.idle();
  assert.deepEqual(failed.map(f => [f.name, f.grace, f.at - t0]).slice(2), [['critical', 10, 20_000]]);
  const state = await readShutdownState(dir);
  assert.deepEqual(state, { startTime: new Date(t0).toISOString().replace('.000Z', 'Z'), endTime: new Date(t0 + 20_000).toISOString().replace('.000Z', 'Z') });
  assert.equal(fl.held(), 0);
  assert.deepEqual(fl.events.slice(2), ['release']);

  fl.emit(false);
  await m.idle();
  assert.equal(m.shuttingDown(), false);
  assert.equal(fl.held(), 1);
  await m.stop();
  assert.equal(fl.held(), 0);
  assert.deepEqual(fl.events.slice(-2), ['release', 'close']);
});

test('shutdown manager: logind that cannot allow the delay: said once, no lock, the node runs on', async () => {
  const fl = fakeLogind(5000, 5000);
  const { log, lines } = captureLog();
  const m = startShutdownManager({
    periods: shutdownPeriods({ shutdownGracePeriod: '30s' }), rootDir: '/nonexistent', logind: { address: 'x', dropInDir: 'y' }, connect: async () => fl.logind,
    pods: () => [], fail: async () => {}, syncNodeStatus: () => {}, clock: fakeClock(), log,
  });
  await m.started;
  assert.equal(fl.held(), 0);
  const warned = lines.filter(l => l.v === 0);
  assert.equal(warned.length, 1);
  assert.match(String(warned[0]!.err), /unable to update logind InhibitDelayMaxSec to 30s \(ShutdownGracePeriod\), current value of InhibitDelayMaxSec \(5s\) is less than requested ShutdownGracePeriod/);
  await m.stop();
});

test('shutdown manager: no system bus (a socket nobody listens on): said once, started all the same', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'node-shutdown-nobus-'));
  const { log, lines } = captureLog();
  const m = startShutdownManager({
    periods: shutdownPeriods({ shutdownGracePeriod: '30s' }), rootDir: dir, logind: { address: `unix:path=${join(dir, 'no-bus')}`, dropInDir: dir },
    pods: () => [], fail: async () => {}, syncNodeStatus: () => {}, clock: fakeClock(), log,
  });
  await m.started;
  const warned = lines.filter(l => l.v === 0);
  assert.equal(warned.length, 1);
  assert.match(String(warned[0]!.msg), /no system D-Bus to reach logind/);
  assert.match(String(warned[0]!.err), /ENOENT/);
  assert.equal(m.shuttingDown(), false);
  await m.stop();
  await rm(dir, { recursive: true, force: true });
});

test('shutdown manager: a connection lost after the start is made again a second later, the lock with it', async () => {
  const clock = fakeClock();
  const fl = fakeLogind(60_000);
  let connects = 0;
  const { log, lines } = captureLog();
  const m = startShutdownManager({
    periods: shutdownPeriods({ shutdownGracePeriod: '30s' }), rootDir: '/nonexistent', logind: { address: 'x', dropInDir: 'y' },
    // the second attempt finds no bus yet, the third does
    connect: async () => { connects++; if (connects === 2) throw new Error('connect ENOENT'); return fl.logind; },
    pods: () => [], fail: async () => {}, syncNodeStatus: () => {}, clock, log,
  });
  await m.started;
  assert.deepEqual(fl.events, ['lock']);
  fl.lose();
  await clock.advance(0);
  assert.equal(fl.held(), 0);
  await clock.advance(1000);
  assert.equal(connects, 2);
  assert.equal(fl.held(), 0);
  await clock.advance(1000);
  for (let i = 0; i < 100 && fl.held() === 0; i++) await new Promise(r => setTimeout(r, 5));
  assert.equal(connects, 3);
  assert.equal(fl.held(), 1);
  assert.deepEqual(lines.filter(l => l.v === 0).map(l => l.msg), ['the system D-Bus connection to logind ended; reconnecting every second']);
  // the signal is watched on the new connection
  fl.emit(true);
  assert.equal(m.shuttingDown(), true);
  await m.stop();
});

test('shutdown manager: no state file without GracefulNodeShutdownBasedOnPodPriority (stateFile false), as the kubelet keeps none then', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'node-shutdown-nostate-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const fl = fakeLogind(60_000);
  const failed: string[] = [];
  const m = startShutdownManager({
    periods: shutdownPeriods({ shutdownGracePeriod: '30s' }), rootDir: dir, stateFile: false, logind: { address: 'x', dropInDir: 'y' }, connect: async () => fl.logind,
    pods: () => [pod('app')], fail: async p => { failed.push(p.metadata.name); }, syncNodeStatus: () => {}, clock: fakeClock(), log: captureLog().log,
  });
  await m.started;
  fl.emit(true);
  await m.idle();
  assert.deepEqual(failed, ['app']);
  assert.equal(fl.held(), 0);
  assert.equal(await readShutdownState(dir), undefined);
  await m.stop();
});
