// `orch up` as a newcomer runs it: one command, a node Ready, kubectl 1.33 and 1.27 running a pod,
// Ctrl-C (SIGINT) stopping everything, and the next `orch up` on the same data dir bringing the
// pod back. Once on the simulated runtime (with --write-kubeconfig into a home of the test's
// own), once on a containerd of orch's own with an image loaded by `orch images import`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxArchive, busyboxSkipReason } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { mountTable, unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';

interface Up { out(): string; stop(signal?: NodeJS.Signals): Promise<number | null> }

/** `orch up` with these flags, once it has printed that its node is Ready */
async function up(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Up> {
  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--port', '0', '--agent-port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<number | null>(r => child.once('exit', code => r(code)));
  await Promise.race([
    // the kubeconfig lines come last, after the node's
    until('orch up\'s node Ready', async () => /^node \S+ Ready \(\d+ ms\)$/m.test(out) && /^kubeconfig/m.test(out), 60_000),
    exited.then(code => { throw new Error(`orch up exited (${code}): ${err}`); }),
  ]);
  return { out: () => out, async stop(signal = 'SIGINT') { child.kill(signal); return exited; } };
}

const run = (cmd: string, args: string[]) => new Promise<string>(resolve => execFile(cmd, args, (_e, stdout) => resolve(String(stdout))));

test('orch up on the simulated runtime: one command, kubectl, Ctrl-C, and back with its pod', { timeout: 240_000 }, async t => {
  const versions = kubectls();
  if (!versions.length) return t.skip(skipForMissing('kubectl not installed'));
  const dir = await mkdtemp(join(tmpdir(), 'orch-up-'));
  // a run that fails half-way may leave the pods' tmpfs volumes mounted
  t.after(async () => { await unmountAllUnder(dir); await rm(dir, { recursive: true, force: true }); });
  const home = join(dir, 'home');
  await mkdir(join(home, '.kube'), { recursive: true });
  // a user's kubeconfig with a cluster of their own, which the merge must keep
  await writeFile(join(home, '.kube', 'config'), 'apiVersion: v1\nkind: Config\nclusters:\n- name: other\n  cluster:\n    server: https://192.0.2.1:6443\ncontexts:\n- name: other\n  context:\n    cluster: other\n    user: other\ncurrent-context: other\nusers:\n- name: other\n  user:\n    token: abc\n');
  const dataDir = join(dir, 'data');
  const first = await up(['--data-dir', dataDir, '--runtime', 'sim', '--write-kubeconfig'], { ...process.env, HOME: home });
  t.after(() => first.stop('SIGKILL'));
  assert.match(first.out(), /^orch up: API server ready at https:\/\/127\.0\.0\.1:\d+ \(\d+ ms\), data in /m);
  assert.match(first.out(), /^runtime: simulated \(orch runtime-sim, as --runtime sim asks\)$/m);
  assert.match(first.out(), /kubeconfig merged into .*\.kube\/config as context "orch"/);
  const config = parse(await readFile(join(home, '.kube', 'config'), 'utf8'));
  assert.equal(config['current-context'], 'orch');
  assert.deepEqual(config.contexts.map((c: any) => c.name).sort(), ['orch', 'other']);
  const kubeconfig = join(home, '.kube', 'config');

  const startedAt = new Map<string, string>();
  for (const k of versions) {
    const nodes = await kubectl(k.path, kubeconfig, ['get', 'nodes', '--no-headers']);
    assert.match(nodes.stdout, /^\S+\s+Ready\s+<none>\s+\S+\s+v1\.36\.\d+/m, `kubectl ${k.label}: ${nodes.stderr}`);
    const name = `web-${k.label.replace(/\W/g, '')}`;
    assert.equal((await kubectl(k.path, kubeconfig, ['run', name, '--image=registry.local/app:1.0', '--command', '--', 'sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"])).code, 0);
    await until(`${name} Running through kubectl ${k.label}`, async () => (await kubectl(k.path, kubeconfig, ['get', 'pod', name, '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 30_000);
    startedAt.set(name, (await kubectl(k.path, kubeconfig, ['get', 'pod', name, '-o', 'jsonpath={.status.containerStatuses[0].state.running.startedAt}'])).stdout);
  }
  // the node's endpoint is certified by the cluster (orch up approved its serving CSR), and the
  // API server, which verifies it against the cluster CA, reaches it
  const servingCsrs = async () => (await kubectl(versions[0]!.path, kubeconfig, ['get', 'csr', '--no-headers'])).stdout.split('\n').filter(l => l.includes('kubernetes.io/kubelet-serving'));
  const [serving] = await servingCsrs();
  assert.match(serving ?? '', /^csr-\w+\s+\S+\s+kubernetes\.io\/kubelet-serving\s+system:node:\S+\s+<none>\s+Approved,Issued$/);
  const viaAgent = await kubectl(versions[0]!.path, kubeconfig, ['get', '--raw', `/api/v1/nodes/${(await kubectl(versions[0]!.path, kubeconfig, ['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}'])).stdout}/proxy/healthz`]);
  assert.equal(viaAgent.stdout, 'ok', viaAgent.stderr);
  assert.equal(await first.stop('SIGINT'), 0, 'Ctrl-C stops orch up cleanly');
  assert.match(first.out(), /^orch up: stopping$/m);
  await assert.rejects(readFile(join(dataDir, 'up.json')), 'the running-state file goes with it');

  // the same data dir: the node, the pods and the certificates come back (on a new port, which
  // the merged kubeconfig is told again)
  const second = await up(['--data-dir', dataDir, '--runtime', 'sim', '--write-kubeconfig'], { ...process.env, HOME: home });
  t.after(() => second.stop('SIGKILL'));
  const k = versions[0]!;
  for (const v of versions) {
    const name = `web-${v.label.replace(/\W/g, '')}`;
    // the simulated runtime starts empty: the agent runs the container anew
    await until(`${name} Running again`, async () => {
      const r = (await kubectl(k.path, kubeconfig, ['get', 'pod', name, '-o', 'jsonpath={.status.phase} {.status.containerStatuses[0].state.running.startedAt}'])).stdout.split(' ');
      return r[0] === 'Running' && r[1] !== startedAt.get(name);
    }, 30_000);
  }
  assert.deepEqual((await servingCsrs()).map(l => l.split(/\s+/)[0]), [serving!.split(/\s+/)[0]], 'the serving certificate kept, not asked for again');
  assert.equal(await second.stop('SIGTERM'), 0);
});

test('orch up on a containerd of its own: an imported image runs, Ctrl-C stops its pods, the next up runs them again', { timeout: 240_000 }, async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const versions = kubectls();
  if (!versions.length) return t.skip(skipForMissing('kubectl not installed'));
  const k = versions[0]!;
  const dir = await mkdtemp(join(tmpdir(), 'orch-up-'));
  // the pods' tmpfs volumes (kube-api-access) stay mounted after Ctrl-C, as the kubelet leaves them
  t.after(async () => { await unmountAllUnder(dir); await rm(dir, { recursive: true, force: true }); });
  const dataDir = join(dir, 'data');
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  const first = await up(['--data-dir', dataDir]);
  t.after(() => first.stop('SIGTERM'));
  const socket = /^runtime: containerd \(orch's own, socket (\S+)\)$/m.exec(first.out())?.[1];
  assert.ok(socket, first.out());
  assert.match(first.out(), new RegExp(`export KUBECONFIG=${kubeconfig}\\n  kubectl get nodes`));

  // no registry: the image comes in through orch images import
  await writeFile(join(dir, 'busybox.tar'), busyboxArchive('docker.io/library/busybox:local'));
  const imported = await new Promise<{ code: number | null; out: string }>(resolve => {
    execFile(join(repoRoot, 'bin/orch'), ['images', 'import', '--data-dir', dataDir, join(dir, 'busybox.tar')], (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: String(stdout) + String(stderr) }));
  });
  assert.equal(imported.code, 0, imported.out);
  assert.match(imported.out, /unpacking docker\.io\/library\/busybox:local/);

  const create = await kubectl(k.path, kubeconfig, ['run', 'box', '--image=docker.io/library/busybox:local', '--image-pull-policy=Never', '--command', '--', 'sh', '-c', "trap 'exit 0' TERM; echo started; while true; do sleep 1; done"]);
  assert.equal(create.code, 0, create.stderr);
  await until('box Running on containerd', async () => (await kubectl(k.path, kubeconfig, ['get', 'pod', 'box', '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 60_000);
  const ip = (await kubectl(k.path, kubeconfig, ['get', 'pod', 'box', '-o', 'jsonpath={.status.podIP}'])).stdout;
  assert.match(ip, /^10\.42\.\d+\.\d+$/, 'an address from the pod subnet on orch\'s bridge');
  assert.equal((await kubectl(k.path, kubeconfig, ['logs', 'box'])).stdout, 'started\n');

  assert.equal(await first.stop('SIGINT'), 0);
  // nothing of the runtime is left running: no shim, no containerd on its socket
  assert.equal((await run('pgrep', ['-f', socket!])).trim(), '', 'no containerd or shim left');
  // and its pods' volumes (the token's tmpfs) are unmounted with them
  assert.deepEqual((await mountTable()).map(m => m.target).filter(t => t.startsWith(join(dataDir, 'agent'))), []);

  const second = await up(['--data-dir', dataDir]);
  t.after(() => second.stop('SIGTERM'));
  // its stopped container is still on record: the agent starts it once more, as the kubelet
  // does after a reboot
  await until('box Running again, restarted once', async () => (await kubectl(k.path, kubeconfig, ['get', 'pod', 'box', '-o', 'jsonpath={.status.phase} {.status.containerStatuses[0].restartCount}'])).stdout === 'Running 1', 60_000);
  assert.equal(await second.stop('SIGINT'), 0);
  assert.equal((await run('pgrep', ['-f', socket!])).trim(), '');
});
