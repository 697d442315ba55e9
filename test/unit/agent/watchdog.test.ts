import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../src/api/log.ts';
import { startWatchdog } from '../../../src/agent/watchdog.ts';
import { skipForMissing } from '../../support/requires.ts';
import { fakeClock } from './fake-clock.ts';

const hasPython = spawnSync('python3', ['-c', ''], { stdio: 'ignore' }).status === 0;

/** a fake service manager: a UNIX datagram socket that records what it receives, with times */
async function fakeNotifySocket(t: { after(fn: () => unknown): void }): Promise<{ path: string; messages: Array<{ at: number; msg: string }> }> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-notify-'));
  const path = join(dir, 'notify.sock');
  const child = spawn('python3', ['-u', '-c', [
    'import socket, sys',
    's = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)',
    `s.bind(${JSON.stringify(path)})`,
    'print("ready", flush=True)',
    'while True: print(s.recv(4096).decode(), flush=True)',
  ].join('\n')], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(async () => { child.kill(); await rm(dir, { recursive: true, force: true }); });
  const messages: Array<{ at: number; msg: string }> = [];
  await new Promise<void>(r => {
    let buf = '';
    child.stdout!.on('data', d => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) { if (l === 'ready') r(); else messages.push({ at: Date.now(), msg: l }); }
    });
  });
  return { path, messages };
}

function captureLog() {
  const lines: any[] = [];
  return { log: createLogger('debug', l => lines.push(JSON.parse(l)), { format: 'json' }), lines };
}

test('READY=1 at start, then WATCHDOG=1 exactly every WatchdogSec/2 while healthy, none while not', async () => {
  const clock = fakeClock();
  const t0 = clock.now();
  const sent: Array<{ at: number; msg: string }> = [];
  let healthy = true;
  const { log, lines } = captureLog();
  const wd = startWatchdog({
    env: { NOTIFY_SOCKET: '/run/fake.sock', WATCHDOG_USEC: '400000' }, healthy: () => healthy, log, clock,
    notifier: { send: msg => sent.push({ at: clock.now() - t0, msg }), close: () => sent.push({ at: clock.now() - t0, msg: 'closed' }) },
  });
  assert.equal(wd.intervalMs, 200);
  await clock.advance(1000);
  healthy = false;
  await clock.advance(600);
  healthy = true;
  await clock.advance(400);
  wd.stop();
  await clock.advance(1000);
  // every interval asserted: 200 ms apart to the millisecond, none while unhealthy, none after stop
  assert.deepEqual(sent, [
    { at: 0, msg: 'READY=1' },
    { at: 200, msg: 'WATCHDOG=1' }, { at: 400, msg: 'WATCHDOG=1' }, { at: 600, msg: 'WATCHDOG=1' }, { at: 800, msg: 'WATCHDOG=1' }, { at: 1000, msg: 'WATCHDOG=1' },
    { at: 1800, msg: 'WATCHDOG=1' }, { at: 2000, msg: 'WATCHDOG=1' },
    { at: 2000, msg: 'closed' },
  ]);
  assert.equal(lines.filter(l => /withholding the watchdog keep-alive/.test(l.msg)).length, 3);
  assert.ok(lines.some(l => l.msg === 'watchdog periods under 1s are not supported'));
});

test('the keep-alives reach a real notify socket through the relay', async t => {
  if (!hasPython) return t.skip(skipForMissing('python3 is needed for the fake notify socket'));
  const sock = await fakeNotifySocket(t);
  const { log } = captureLog();
  const wd = startWatchdog({ env: { NOTIFY_SOCKET: sock.path, WATCHDOG_USEC: '400000' }, healthy: () => true, log });
  const deadline = Date.now() + 5000;
  while (sock.messages.filter(m => m.msg === 'WATCHDOG=1').length < 2 && Date.now() < deadline) await new Promise(r => setTimeout(r, 50));
  wd.stop();
  assert.equal(sock.messages[0]?.msg, 'READY=1');
  assert.ok(sock.messages.filter(m => m.msg === 'WATCHDOG=1').length >= 2);
});

test('WatchdogSec 0 or unset: READY=1 only; no NOTIFY_SOCKET: nothing', async t => {
  if (!hasPython) return t.skip(skipForMissing('python3 is needed for the fake notify socket'));
  const sock = await fakeNotifySocket(t);
  const { log } = captureLog();
  const off = startWatchdog({ env: { NOTIFY_SOCKET: sock.path, WATCHDOG_USEC: '0' }, healthy: () => true, log });
  const unset = startWatchdog({ env: { NOTIFY_SOCKET: sock.path }, healthy: () => true, log });
  assert.equal(off.intervalMs, null);
  assert.equal(unset.intervalMs, null);
  // both READY=1 arrive through the relay; a loaded machine may take a while to pass them on
  for (const deadline = Date.now() + 5000; sock.messages.length < 2 && Date.now() < deadline;) await new Promise(r => setTimeout(r, 50));
  // and nothing follows them
  await new Promise(r => setTimeout(r, 500));
  off.stop();
  unset.stop();
  assert.deepEqual(sock.messages.map(m => m.msg), ['READY=1', 'READY=1']);
  assert.equal(startWatchdog({ env: {}, healthy: () => true, log }).intervalMs, null);
  const other = startWatchdog({ env: { NOTIFY_SOCKET: sock.path, WATCHDOG_USEC: '2000000', WATCHDOG_PID: '1' }, healthy: () => true, log });
  assert.equal(other.intervalMs, null, 'a watchdog for another pid is not fed');
  other.stop();
});
