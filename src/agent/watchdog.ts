// The supervisor watchdog (appendix C): under a service manager that set NOTIFY_SOCKET and
// WATCHDOG_USEC, the agent says READY=1 once started and WATCHDOG=1 every WatchdogSec/2 while
// its health checks pass, so a wedged agent is killed and restarted. WatchdogSec 0 or unset
// turns the keep-alives off.
//
// Node cannot send UNIX datagrams, so a long-lived python3 child relays our lines to the
// socket (or, without python3, systemd-notify runs per message). The sender is then a child
// process: the service needs NotifyAccess=all for the manager to accept its messages.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { Logger } from '../api/log.ts';
import { realClock, type Clock } from '../api/clock.ts';

export interface WatchdogOptions {
  env?: NodeJS.ProcessEnv;
  healthy: () => boolean | Promise<boolean>;
  log: Logger;
  /** the keep-alives' timer (tests drive a fake one) */
  clock?: Clock;
  /** where messages go (default: the NOTIFY_SOCKET, through a relay) */
  notifier?: Notifier;
}

export interface Notifier { send(msg: string): void; close(): void }

export interface Watchdog {
  /** keep-alive period in ms, or null when the watchdog is off */
  intervalMs: number | null;
  stop(): void;
}

const relayScript = [
  'import os, socket, sys',
  'addr = os.environ["NOTIFY_SOCKET"]',
  'if addr.startswith("@"): addr = "\\0" + addr[1:]',
  's = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)',
  'for line in sys.stdin:',
  '    try: s.sendto(line.rstrip("\\n").encode(), addr)',
  '    except OSError as e: print(e, file=sys.stderr, flush=True)',
].join('\n');

function socketNotifier(socketPath: string, log: Logger): Notifier {
  const env = { ...process.env, NOTIFY_SOCKET: socketPath };
  const hasPython = spawnSync('python3', ['-c', ''], { stdio: 'ignore' }).status === 0;
  if (hasPython) {
    const child: ChildProcess = spawn('python3', ['-u', '-c', relayScript], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    child.stderr!.on('data', d => log.warn('watchdog notification failed', { err: String(d).trim() }));
    child.on('error', err => log.warn('watchdog relay failed', { err: err.message }));
    child.unref();
    return { send: msg => { child.stdin!.write(`${msg}\n`); }, close: () => { child.stdin!.end(); } };
  }
  return {
    send: msg => { spawn('systemd-notify', [msg], { env, stdio: 'ignore' }).on('error', err => log.warn('watchdog notification failed', { err: err.message })).unref(); },
    close: () => {},
  };
}

export function startWatchdog(opts: WatchdogOptions): Watchdog {
  const env = opts.env ?? process.env;
  const socketPath = env.NOTIFY_SOCKET;
  if (!socketPath) return { intervalMs: null, stop() {} };
  const usec = Number(env.WATCHDOG_USEC ?? 0);
  // a watchdog meant for another process (WATCHDOG_PID) is not ours to feed
  const forUs = !env.WATCHDOG_PID || Number(env.WATCHDOG_PID) === process.pid;
  const out = opts.notifier ?? socketNotifier(socketPath, opts.log);
  out.send('READY=1');
  if (!(usec > 0) || !forUs) {
    opts.log.info('systemd watchdog is not enabled');
    return { intervalMs: null, stop: () => out.close() };
  }
  if (usec < 1_000_000) opts.log.warn('watchdog periods under 1s are not supported', { watchdogSec: usec / 1e6 });
  const intervalMs = usec / 2000;
  const clock = opts.clock ?? realClock;
  let stopped = false;
  // each keep-alive is due one period after the previous one was due, however long the check took
  let timer = clock.after(intervalMs, function beat() {
    if (stopped) return;
    timer = clock.after(intervalMs, beat);
    void (async () => {
      let ok = false;
      try { ok = await opts.healthy(); } catch { ok = false; }
      if (stopped) return;
      if (ok) out.send('WATCHDOG=1');
      else opts.log.warn('agent unhealthy; withholding the watchdog keep-alive');
    })();
  });
  opts.log.info('systemd watchdog enabled', { intervalMs });
  return { intervalMs, stop() { stopped = true; timer.cancel(); out.close(); } };
}
