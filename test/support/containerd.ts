// Runs a private containerd for tests: its own root, state, socket and CNI configuration under
// a temp dir, with the one setting these machines need (restrict_oom_score_adj). Skips (returns
// a reason) when not root or when containerd or runc are missing.

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectCri } from '../../src/agent/cri/client.ts';
import { ctr as ctrAt } from '../../src/agent/containerd/embedded.ts';

export interface Containerd {
  endpoint: string;
  dir: string;
  /** runs ctr against this containerd in the k8s.io namespace */
  ctr(args: string[], input?: Buffer): Promise<string>;
  stop(): Promise<void>;
}

export function containerdSkipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'containerd tests need root';
  for (const bin of ['/usr/bin/containerd', '/usr/bin/ctr']) if (!existsSync(bin)) return `${bin} not installed (apt-get install containerd)`;
  if (!existsSync('/usr/sbin/runc') && !existsSync('/usr/bin/runc')) return 'runc not installed';
  if (!existsSync('/usr/lib/cni/bridge')) return 'CNI plugins not installed (apt-get install containernetworking-plugins)';
  return undefined;
}

/** a bridge network with host-local addresses from the subnet, plus port mappings */
function cniConfig(subnet: string, bridge: string, ipamDir: string): string {
  return JSON.stringify({
    cniVersion: '0.4.0',
    name: 'orch-test',
    plugins: [
      { type: 'bridge', bridge, isGateway: true, ipMasq: true, ipam: { type: 'host-local', ranges: [[{ subnet }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: ipamDir } },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  }, null, 2);
}

export async function startContainerd(opts: { sandboxImage?: string; subnet?: string } = {}): Promise<Containerd> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-containerd-'));
  const sock = join(dir, 'containerd.sock');
  const cniDir = join(dir, 'cni');
  await mkdir(cniDir);
  // bridge names are limited to 15 characters and shared by the whole machine
  const bridge = `orch${process.pid % 100000}`;
  await writeFile(join(cniDir, '10-orch.conflist'), cniConfig(opts.subnet ?? `10.${88 + (process.pid % 50)}.0.0/16`, bridge, join(dir, 'ipam')));
  await writeFile(join(dir, 'config.toml'), [
    'version = 2',
    `root = "${join(dir, 'root')}"`,
    `state = "${join(dir, 'state')}"`,
    '[grpc]',
    `  address = "${sock}"`,
    '[ttrpc]',
    `  address = "${sock}.ttrpc"`,
    '[plugins."io.containerd.grpc.v1.cri"]',
    '  restrict_oom_score_adj = true',
    `  sandbox_image = "${opts.sandboxImage ?? 'registry.k8s.io/pause:3.9'}"`,
    '[plugins."io.containerd.grpc.v1.cri".cni]',
    '  bin_dir = "/usr/lib/cni"',
    `  conf_dir = "${cniDir}"`,
    '',
  ].join('\n'));
  const child: ChildProcess = spawn('/usr/bin/containerd', ['--config', join(dir, 'config.toml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', d => { log = (log + d).slice(-20_000); });
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  const deadline = Date.now() + 20_000;
  while (!existsSync(sock)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`containerd did not start: ${log.slice(-2000)}`);
    await new Promise(r => setTimeout(r, 100));
  }
  const ctr = (args: string[], input?: Buffer) => ctrAt(sock, args, input);
  return {
    endpoint: `unix://${sock}`,
    dir,
    ctr,
    async stop() {
      // sandboxes first, through the CRI, so the network plugins undo what they did on the host
      // (veth pairs, network namespaces, NAT rules)
      const ids = (await ctr(['containers', 'ls', '-q']).catch(() => '')).split('\n').filter(Boolean);
      await removeSandboxes(`unix://${sock}`).catch(() => undefined);
      // containers next, so no shim outlives the test
      const tasks = await ctr(['task', 'ls', '-q']).catch(() => '');
      for (const id of tasks.split('\n').filter(Boolean)) await ctr(['task', 'kill', '-s', 'SIGKILL', id]).catch(() => undefined);
      child.kill('SIGTERM');
      // unref'd: a timer left running after containerd has exited would hold the test file open 5 s more
      await Promise.race([exited, new Promise(r => setTimeout(r, 5000).unref())]);
      if (child.exitCode === null) { child.kill('SIGKILL'); await exited; }
      // shims outlive containerd by design; ours must not outlive the test
      await new Promise(r => execFile('pkill', ['-KILL', '-f', `containerd-shim.*-address ${sock}`], r));
      await new Promise(r => execFile('sh', ['-c', `grep -o ' ${dir}[^ ]*' /proc/mounts | sort -r | xargs -r -n1 umount -l`], r));
      // a container whose shim died first is reparented to init and keeps running: its cgroup
      // still names it
      await killCgroups(ids);
      await new Promise(r => execFile('ip', ['link', 'del', bridge], r));
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

async function killCgroups(ids: string[]): Promise<void> {
  for (const id of ids) {
    for (const controller of ['pids', 'memory', 'cpu,cpuacct', 'unified']) {
      const procs = await readFile(`/sys/fs/cgroup/${controller}/k8s.io/${id}/cgroup.procs`, 'utf8').catch(() => '');
      for (const pid of procs.split('\n').filter(Boolean)) { try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ } }
    }
  }
}

async function removeSandboxes(endpoint: string): Promise<void> {
  const cri = await connectCri(endpoint, { timeoutMs: 15_000 });
  try {
    const { items } = await cri.listPodSandbox({});
    for (const s of items ?? []) {
      await cri.stopPodSandbox({ podSandboxId: s.id }).catch(() => undefined);
      await cri.removePodSandbox({ podSandboxId: s.id }).catch(() => undefined);
    }
  } finally {
    cri.close();
  }
}
