// systemd-logind over the system D-Bus (dbus-next), for the graceful node shutdown: the
// InhibitDelayMaxUSec property, raising it through a logind.conf.d drop-in and a reload, the
// PrepareForShutdown signal, and a delay inhibitor lock on shutdown.
//
// The lock is a file descriptor logind hands back from Inhibit, held as long as it stays open.
// Node's sockets cannot receive descriptors (SCM_RIGHTS), and dbus-next does so only through a
// native addon npm will not build here, so the lock is held by `systemd-inhibit` (shipped with
// logind wherever logind runs): it calls the same Inhibit("shutdown", who, why, "delay") on the
// same bus and keeps the descriptor while its child `cat` reads the agent's pipe. Closing the
// pipe, or the agent dying, ends `cat`, systemd-inhibit exits and logind sees the lock released.

import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type * as DBusNext from 'dbus-next';
import { lazyModule } from '../../api/lazy-module.ts';
import { writeFileAtomic } from '../../pki/atomic-write.ts';

const dbusNext = lazyModule<typeof DBusNext>('dbus-next');

export const defaultSystemBusAddress = 'unix:path=/var/run/dbus/system_bus_socket';
export const defaultLogindDropInDir = '/etc/systemd/logind.conf.d';
/** the drop-in the kubelet writes; logind reads drop-ins in lexical order, so 99 wins */
export const logindDropInName = '99-kubelet.conf';

const login1 = { destination: 'org.freedesktop.login1', path: '/org/freedesktop/login1' };
const managerInterface = 'org.freedesktop.login1.Manager';
/** who and why the lock names, as the kubelet names them (ListInhibitors and `systemd-inhibit --list` show them) */
export const inhibitWho = 'kubelet';
export const inhibitWhy = 'Kubelet needs time to handle node shutdown';

export interface InhibitLock { release(): Promise<void> }

export interface Logind {
  /** InhibitDelayMaxUSec, in milliseconds */
  inhibitDelayMaxMs(): Promise<number>;
  /** InhibitDelayMaxSec in the drop-in directory, then logind reloaded (SIGHUP through systemd) */
  raiseInhibitDelay(seconds: number): Promise<void>;
  /** a delay lock on shutdown, resolved once logind lists it */
  inhibitShutdown(): Promise<InhibitLock>;
  /** PrepareForShutdown(true): shutting down; (false): a shutdown was cancelled */
  onPrepareForShutdown(listener: (active: boolean) => void): Promise<void>;
  /** the connection to the bus ended (the bus restarted or went away) */
  onClose(listener: () => void): void;
  close(): void;
}

export interface LogindOptions {
  /** a D-Bus address (DBUS_SYSTEM_BUS_ADDRESS's form) */
  address: string;
  dropInDir: string;
  /** the systemd-inhibit program */
  systemdInhibit?: string;
}

/** connects to the bus; rejects when there is no bus to connect to */
export async function connectLogind(o: LogindOptions): Promise<Logind> {
  const { sessionBus, Message, MessageType } = dbusNext();
  // sessionBus is dbus-next's "this address" client; systemBus would read only the environment
  const bus = sessionBus({ busAddress: o.address });
  const errors: Error[] = [];
  await new Promise<void>((resolve, reject) => {
    bus.once('connect', resolve);
    bus.on('error', (err: Error) => { errors.push(err); reject(err); });
  });
  // a call on a connection that ended never answers: D-Bus's own default method timeout, 25 s
  const call = async (m: DBusNext.MessageLike) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer from ${m.destination} to ${m.member} within 25s`)), 25_000); });
    try { return (await Promise.race([bus.call(new Message(m)), timeout]))?.body ?? []; } finally { clearTimeout(timer); }
  };
  // dbus-next's bus does not pass on the end of its stream; its connection (not in its types) does
  const connection = (bus as unknown as { _connection: NodeJS.EventEmitter })._connection;
  let closing = false;
  const logind = (member: string, signature = '', body: unknown[] = []) => call({ ...login1, interface: managerInterface, member, signature, body });

  async function listed(pid: number): Promise<boolean> {
    const [inhibitors] = await logind('ListInhibitors') as [Array<[string, string, string, string, number, number]>];
    return inhibitors.some(([what, who, why, mode, , p]) => what === 'shutdown' && who === inhibitWho && why === inhibitWhy && mode === 'delay' && p === pid);
  }

  return {
    async inhibitDelayMaxMs() {
      const [v] = await call({ ...login1, interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [managerInterface, 'InhibitDelayMaxUSec'] }) as [DBusNext.Variant];
      if (typeof v?.value !== 'bigint' && typeof v?.value !== 'number') throw new Error('InhibitDelayMaxUSec from logind is not a uint64 as expected');
      return Number(v.value) / 1000;
    },
    async raiseInhibitDelay(seconds) {
      await mkdir(o.dropInDir, { recursive: true, mode: 0o755 });
      await writeFileAtomic(join(o.dropInDir, logindDropInName), `# the orch node agent's logind override, room for its graceful node shutdown\n[Login]\nInhibitDelayMaxSec=${seconds}\n`, 0o644);
      await call({ destination: 'org.freedesktop.systemd1', path: '/org/freedesktop/systemd1', interface: 'org.freedesktop.systemd1.Manager', member: 'KillUnit', signature: 'ssi', body: ['systemd-logind.service', 'all', 1] });
    },
    async inhibitShutdown() {
      const child = spawn(o.systemdInhibit ?? 'systemd-inhibit', ['--what=shutdown', `--who=${inhibitWho}`, `--why=${inhibitWhy}`, '--mode=delay', 'cat'], {
        stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: o.address },
      });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
      let exited = false;
      const exit = new Promise<void>(resolve => {
        child.once('exit', () => { exited = true; resolve(); });
        child.once('error', err => { exited = true; stderr ||= err.message; resolve(); });
      });
      const release = async () => {
        child.stdin!.end();
        const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exit;
        clearTimeout(killer);
      };
      // held once logind lists it under systemd-inhibit's pid; an exit first is a refusal
      for (let i = 0; i < 200 && !exited; i++) {
        if (child.pid && await listed(child.pid).catch(() => false)) return { release };
        await new Promise(r => setTimeout(r, 25));
      }
      await release();
      throw new Error(`failed creating systemd inhibitor: ${stderr.trim() || 'the lock was not listed by logind'}`);
    },
    async onPrepareForShutdown(listener) {
      bus.on('message', (m: DBusNext.Message) => {
        if (m.type === MessageType.SIGNAL && m.interface === managerInterface && m.member === 'PrepareForShutdown' && typeof m.body[0] === 'boolean') listener(m.body[0]);
      });
      await call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'AddMatch', signature: 's', body: [`type='signal',interface='${managerInterface}',member='PrepareForShutdown',path='${login1.path}'`] });
    },
    onClose(listener) {
      let said = false;
      const once = () => { if (!said && !closing) { said = true; listener(); } };
      connection.once('end', once);
      bus.on('error', once);
    },
    close() {
      closing = true;
      bus.disconnect();
    },
  };
}
