// A private system bus for a test: dbus-daemon on a socket in the test's directory with a
// configuration of its own (anyone may own and call anything), the logind stand-in
// (logind-stand-in.py) serving on it, and a dbus-next client for the test to drive it.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { once } from 'node:events';
import type * as DBusNext from 'dbus-next';

export const dbusDaemon = '/usr/bin/dbus-daemon';
export const standInScript = join(import.meta.dirname, 'logind-stand-in.py');
const python = '/usr/bin/python3';
const systemdInhibit = '/usr/bin/systemd-inhibit';

/** why the private bus cannot run here (falsy: it can) */
export function privateBusMissing(): string | false {
  if (!existsSync(dbusDaemon)) return `${dbusDaemon} not installed (Debian package dbus)`;
  if (!existsSync(systemdInhibit)) return `${systemdInhibit} not installed (Debian package systemd)`;
  if (!existsSync(python)) return `${python} not installed`;
  if (spawnSync(python, ['-c', 'import dbus, dbus.mainloop.glib, gi'], { stdio: 'ignore' }).status !== 0) return 'dbus-python with GLib (Debian packages python3-dbus, python3-gi) not installed';
  return false;
}

export interface LogindStandIn {
  address: string;
  /** emits PrepareForShutdown(active) */
  prepareForShutdown(active: boolean): Promise<void>;
  /** ListInhibitors: what, who, why, mode, uid, pid */
  inhibitors(): Promise<Array<[string, string, string, string, number, number]>>;
  inhibitDelayMaxUSec(): Promise<number>;
  /** when each delay lock was released, milliseconds since the epoch */
  released(): Promise<number[]>;
  /** the bus and the stand-in stopped and started again on the same socket (a restarted system bus) */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function started(child: ChildProcess, what: string, ready: (out: string) => boolean): Promise<string> {
  let out = '', err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (ready(out)) resolve(out); });
    child.once('exit', code => reject(new Error(`${what} exited (${code}): ${err.trim()}`)));
  });
}

export async function startLogindStandIn(dir: string, delayUSec: number, dropInDir: string): Promise<LogindStandIn> {
  const socket = join(dir, 'system_bus_socket');
  const config = join(dir, 'bus.conf');
  await writeFile(config, `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/><allow send_type="signal"/><allow send_type="method_return"/><allow send_type="error"/>
    <allow receive_type="method_call"/><allow receive_type="signal"/><allow receive_type="method_return"/><allow receive_type="error"/>
  </policy>
</busconfig>
`);
  const address = `unix:path=${socket}`;
  const { sessionBus, Message } = createRequire(import.meta.url)('dbus-next') as typeof DBusNext;
  let daemon: ChildProcess, standIn: ChildProcess, bus: DBusNext.MessageBus;
  const up = async () => {
    await rm(socket, { force: true });
    daemon = spawn(dbusDaemon, [`--config-file=${config}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await started(daemon, 'dbus-daemon', out => out.includes('\n'));
    standIn = spawn(python, [standInScript, address, String(delayUSec), dropInDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    await started(standIn, 'the logind stand-in', out => out.includes('ready'));
    bus = sessionBus({ busAddress: address });
    bus.on('error', () => undefined);
  };
  const down = async () => {
    bus.disconnect();
    for (const p of [standIn, daemon]) {
      if (p.exitCode === null && p.signalCode === null) { p.kill('SIGTERM'); await once(p, 'exit'); }
    }
  };
  await up();
  const login1 = { destination: 'org.freedesktop.login1', path: '/org/freedesktop/login1' };
  const call = async (m: DBusNext.MessageLike) => (await bus.call(new Message(m)))?.body ?? [];
  return {
    address,
    prepareForShutdown: async active => { await call({ ...login1, interface: 'org.orch.test.LogindStandIn', member: 'Shutdown', signature: 'b', body: [active] }); },
    inhibitors: async () => (await call({ ...login1, interface: 'org.freedesktop.login1.Manager', member: 'ListInhibitors' }))[0],
    inhibitDelayMaxUSec: async () => Number((await call({ ...login1, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: ['org.freedesktop.login1.Manager', 'InhibitDelayMaxUSec'] }))[0].value),
    released: async () => ((await call({ ...login1, interface: 'org.orch.test.LogindStandIn', member: 'Released' }))[0] as number[]).map(s => s * 1000),
    async restart() { await down(); await up(); },
    stop: down,
  };
}
