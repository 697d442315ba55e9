// A containerd of orch's own, as k3s runs its embedded one: started from a configuration orch
// writes (root under the data dir, state and socket under /run, a CNI bridge, the settings these
// machines need), with orch's pause image imported as the sandbox image. Stopping it stops every
// pod sandbox first (their containers and network go with them, no shim outlives it); the images
// and the pods' records stay under the root, and the agent starts the pods again next time.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../api/log.ts';
import { connectCri } from '../cri/client.ts';
import { pauseImage, pauseImageArchive } from './pause-image.ts';
import { ensurePodBridge } from './pod-bridge.ts';

const containerdBin = '/usr/bin/containerd';
const ctrBin = '/usr/bin/ctr';
const cniDirs = ['/usr/lib/cni', '/opt/cni/bin'];

/** why this machine cannot run an embedded containerd, or undefined when it can */
export function embeddedContainerdMissing(): string | undefined {
  if (process.getuid?.() !== 0) return 'containerd needs root';
  if (!existsSync(containerdBin) || !existsSync(ctrBin)) return 'containerd is not installed';
  if (!existsSync('/usr/sbin/runc') && !existsSync('/usr/bin/runc')) return 'runc is not installed';
  if (!cniDirs.some(d => existsSync(join(d, 'bridge')))) return 'the CNI plugins are not installed';
  if (!pauseImageArchive()) return `orch has no pause image for ${process.arch}`;
  return undefined;
}

export interface EmbeddedContainerdOptions {
  /** root of images and snapshots: kept across restarts */
  rootDir: string;
  /** state, sockets and the CNI configuration: under /run, short enough for a socket path */
  stateDir: string;
  /** the pods' subnet on the bridge */
  podSubnet: string;
  log: Logger;
}

export interface EmbeddedContainerd {
  /** the CRI endpoint, unix://… */
  endpoint: string;
  /** containerd's own socket, for ctr */
  address: string;
  /** the host's address on the pods' bridge, which pods reach host services at */
  podGateway: string;
  stop(): Promise<void>;
}

/** runs ctr against a containerd in the namespace the CRI uses */
export function ctr(address: string, args: string[], input?: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(ctrBin, ['--address', address, '-n', 'k8s.io', ...args], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(String(stderr).trim() || err.message)) : resolve(String(stdout)));
    if (input) child.stdin!.end(input);
  });
}

function configToml(o: EmbeddedContainerdOptions, address: string, cniBin: string, cniConf: string): string {
  return [
    'version = 2',
    `root = ${JSON.stringify(o.rootDir)}`,
    `state = ${JSON.stringify(join(o.stateDir, 'state'))}`,
    '[grpc]',
    `  address = ${JSON.stringify(address)}`,
    '[ttrpc]',
    `  address = ${JSON.stringify(`${address}.ttrpc`)}`,
    '[plugins."io.containerd.grpc.v1.cri"]',
    // sandboxes get oom_score_adj -998 otherwise, which hosts like these refuse
    '  restrict_oom_score_adj = true',
    `  sandbox_image = ${JSON.stringify(pauseImage)}`,
    '[plugins."io.containerd.grpc.v1.cri".cni]',
    `  bin_dir = ${JSON.stringify(cniBin)}`,
    `  conf_dir = ${JSON.stringify(cniConf)}`,
    '',
  ].join('\n');
}

const podBridge = 'orch0';

function cniConflist(subnet: string, dataDir: string): string {
  return JSON.stringify({
    cniVersion: '0.4.0',
    name: 'orch',
    plugins: [
      // hairpinMode: a pod's own packets, DNATed back to it by its Service, may leave and re-enter its bridge port
      { type: 'bridge', bridge: podBridge, isGateway: true, ipMasq: true, hairpinMode: true, ipam: { type: 'host-local', ranges: [[{ subnet }]], routes: [{ dst: '0.0.0.0/0' }], dataDir } },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  }, null, 2);
}

/** a containerd an earlier orch started and did not stop (it was killed): stopped, so that a new one can take the root */
async function stopLeftover(pidFile: string): Promise<void> {
  const pid = Number(await readFile(pidFile, 'utf8').catch(() => ''));
  if (!pid) return;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmdline.startsWith(containerdBin)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && (await readFile(`/proc/${pid}/cmdline`, 'utf8').then(() => true, () => false)); i++) await new Promise(r => setTimeout(r, 50));
}

export async function startEmbeddedContainerd(o: EmbeddedContainerdOptions): Promise<EmbeddedContainerd> {
  const cniBin = cniDirs.find(d => existsSync(join(d, 'bridge')))!;
  const cniConf = join(o.stateDir, 'cni');
  const address = join(o.stateDir, 'containerd.sock');
  await mkdir(o.rootDir, { recursive: true, mode: 0o700 });
  await mkdir(cniConf, { recursive: true });
  const podGateway = await ensurePodBridge(podBridge, o.podSubnet);
  await writeFile(join(cniConf, '10-orch.conflist'), cniConflist(o.podSubnet, join(o.rootDir, '..', 'cni-ipam')));
  const config = join(o.stateDir, 'config.toml');
  await writeFile(config, configToml(o, address, cniBin, cniConf));
  const pidFile = join(o.stateDir, 'containerd.pid');
  await stopLeftover(pidFile);
  // in a process group of its own: a Ctrl-C in the terminal reaches orch, which stops the pods
  // before it stops containerd, instead of reaching both at once
  // Go collects its heap when it has grown by GOGC % (100 by default): at 25 the idle daemon with
  // a pod measured 41.4 instead of 43.7 MiB, the shims (which inherit the environment) unchanged.
  // Most of what remains is its binary's pages. A GOGC the user set is kept.
  const env = { ...process.env, GOGC: process.env.GOGC ?? '25' };
  const child: ChildProcess = spawn(containerdBin, ['--config', config], { stdio: ['ignore', 'ignore', 'pipe'], detached: true, env });
  await writeFile(pidFile, String(child.pid));
  // its log beside its root, as k3s keeps containerd.log in its data dir; the tail for errors here
  const logFile = createWriteStream(join(o.rootDir, 'containerd.log'), { flags: 'a' });
  let stderr = '';
  child.stderr!.on('data', d => { logFile.write(d); stderr = (stderr + d).slice(-8000); });
  child.once('exit', () => logFile.end());
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  const deadline = Date.now() + 20_000;
  while (!existsSync(address) || !(await ctr(address, ['version']).then(() => true, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`containerd did not start: ${stderr.trim().split('\n').slice(-5).join('\n')}`);
    }
    await new Promise(r => setTimeout(r, 50));
  }
  // the sandbox image, once: nothing can be pulled
  if (!(await ctr(address, ['images', 'ls', '-q']).catch(() => '')).split('\n').includes(pauseImage)) {
    await ctr(address, ['images', 'import', '-'], pauseImageArchive());
    o.log.info('imported the pause image', { image: pauseImage });
  }
  return {
    endpoint: `unix://${address}`,
    address,
    podGateway,
    async stop() {
      const cri = await connectCri(`unix://${address}`, { timeoutMs: 15_000 });
      try {
        const { items } = await cri.listPodSandbox({});
        // all at once: one that containerd is slow to stop does not hold up the others
        await Promise.all((items ?? []).map(sb => cri.stopPodSandbox({ podSandboxId: sb.id }).catch(err => o.log.warn('stopping a pod sandbox failed', { id: sb.id, err: String(err) }))));
      } catch (err) {
        o.log.warn('the pods were not stopped', { err: String(err) });
      } finally {
        cri.close();
      }
      // containerd deletes a stopped task, and its shim exits, when it handles the exit event:
      // it is stopped once none is left, so that no shim outlives it
      for (let i = 0; i < 100; i++) {
        const tasks = await ctr(address, ['tasks', 'ls']).catch(() => '');
        if (!/\bRUNNING\b|\bSTOPPED\b/.test(tasks)) break;
        await new Promise(r => setTimeout(r, 50));
      }
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise(r => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited; }
      await rm(pidFile, { force: true });
    },
  };
}
