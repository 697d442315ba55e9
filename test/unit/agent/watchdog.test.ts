import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../src/api/log.ts';
import { startWatchdog } from '../../../src/agent/watchdog.ts';
import { skipForMissing } from '../../support/requires.ts';

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
  return { log: createLogger('debug', l => lines.push(JSON.parse(l))), lines };
}

test('READY=1 at start, then WATCHDOG=1 every WatchdogSec/2 while healthy, none while not', async t => {
  if (!hasPython) return t.skip(skipForMissing('python3 is needed for the fake notify socket'));
  const sock = await fakeNotifySocket(t);
  let healthy = true;
  const { log, lines } = captureLog();
  const wd = startWatchdog({ env: { NOTIFY_SOCKET: sock.path, WATCHDOG_USEC: '400000' }, healthy: () => healthy, log });
  assert.equal(wd.intervalMs, 200);
  await new Promise(r => setTimeout(r, 1100));
  healthy = false;
  const before = sock.messages.length;
  await new Promise(r => setTimeout(r, 700));
  const during = sock.messages.length - before;
  wd.stop();
  assert.equal(sock.messages[0]?.msg, 'READY=1');
  const beats = sock.messages.slice(1, before).filter(m => m.msg === 'WATCHDOG=1');
  assert.ok(beats.length >= 3 && beats.length <= 6, `about 5 keep-alives in 1.1 s, got ${beats.length}`);
  // arrival times jitter on a busy machine (a late datagram lands next to the following one);
  // the pace over the run is what the period decides
  const meanGap = (beats.at(-1)!.at - beats[0]!.at) / (beats.length - 1);
  assert.ok(meanGap > 120 && meanGap < 350, `keep-alives about 200 ms apart on average, got ${meanGap.toFixed(0)} ms`);
  assert.ok(during <= 1, `no keep-alives while unhealthy (one may be in flight), got ${during}`);
  assert.ok(lines.some(l => l.msg === 'watchdog periods under 1s are not supported'));
  assert.ok(lines.some(l => /withholding the watchdog keep-alive/.test(l.msg)));
});

test('WatchdogSec 0 or unset: READY=1 only; no NOTIFY_SOCKET: nothing', async t => {
  if (!hasPython) return t.skip(skipForMissing('python3 is needed for the fake notify socket'));
  const sock = await fakeNotifySocket(t);
  const { log } = captureLog();
  const off = startWatchdog({ env: { NOTIFY_SOCKET: sock.path, WATCHDOG_USEC: '0' }, healthy: () => true, log });
  const unset = startWatchdog({ env: { NOTIFY_SOCKET: sock.path }, healthy: () => true, log });
  assert.equal(off.intervalMs, null);
  assert.equal(unset.intervalMs, null);
  await new Promise(r => setTimeout(r, 500));
  off.stop();
  unset.stop();
  assert.deepEqual(sock.messages.map(m => m.msg), ['READY=1', 'READY=1']);
  assert.equal(startWatchdog({ env: {}, healthy: () => true, log }).intervalMs, null);
  const other = startWatchdog({ env: { NOTIFY_SOCKET: sock.path, WATCHDOG_USEC: '2000000', WATCHDOG_PID: '1' }, healthy: () => true, log });
  assert.equal(other.intervalMs, null, 'a watchdog for another pid is not fed');
  other.stop();
});
