// Issue 21's acceptance: the usual kubectl workflows against `orch up`, with kubectl 1.33 and 1.27
// side by side (each with objects of its own), once on the simulated runtime and once on orch's
// own containerd: a Deployment created, rolled out, its image set and undone, scaled, restarted
// and exposed; a Job and a CronJob (and a job made from it); a StatefulSet whose pod is deleted
// and comes back with its claim (and on containerd, its data); a DaemonSet across two nodes (a
// second agent joins); deleting a Deployment takes its ReplicaSets and pods, --cascade=orphan
// leaves them.

import { suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodePool } from '../support/node-pool.ts';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxArchive, busyboxSkipReason } from '../support/oci-image.ts';
import { holdHostNetwork } from '../support/host-network-lock.ts';
import { skipForMissing } from '../support/requires.ts';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { repoRoot } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { unmountAllUnder } from '../../src/agent/pods/volumes/host-mounts.ts';

const loop = ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"];

/**
 * Cleanup in one hook, last made first undone: node:test runs `after` hooks in the order they
 * were registered, and one that throws skips the rest, so a data dir removed before `orch up`
 * stops (its pods' kube-api-access tmpfs still mounted: EBUSY) left orch up running and the test
 * file hanging.
 */
function teardownOf(t: { after(fn: () => unknown): void }): (fn: () => unknown) => void {
  const steps: Array<() => unknown> = [];
  t.after(async () => { for (const fn of steps.reverse()) await fn(); });
  return fn => { steps.push(fn); };
}

async function tempDir(onTeardown: (fn: () => unknown) => void): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-accept-'));
  // the pods' tmpfs volumes stay mounted after Ctrl-C, as the kubelet leaves them
  onTeardown(async () => { await unmountAllUnder(dir); await rm(dir, { recursive: true, force: true }); });
  return dir;
}

async function up(dataDir: string, runtime: string, onTeardown: (fn: () => unknown) => void): Promise<void> {
  const child = spawn(join(repoRoot, 'bin/orch'), ['up', '--data-dir', dataDir, '--port', '0', '--agent-port', '0', '--runtime', runtime], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '', err = '';
  child.stdout!.on('data', d => { out += d; });
  child.stderr!.on('data', d => { err += d; });
  const exited = new Promise<void>(r => child.once('exit', () => r()));
  onTeardown(async () => { child.kill('SIGINT'); await exited; });
  await Promise.race([
    until('orch up Ready', async () => /^node \S+ Ready/m.test(out), 60_000),
    exited.then(() => { throw new Error(`orch up exited: ${err}`); }),
  ]);
}

function workflows(kubeconfig: string, images: [string, string], containerd: boolean) {
  return async (k: { label: string; path: string }) => {
    const v = k.label.replace(/\W/g, '');
    const run = async (args: string[], input?: string): Promise<string> => {
      const r: Run = await kubectl(k.path, kubeconfig, args, input);
      assert.equal(r.code, 0, `kubectl ${k.label} ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    const get = (what: string, path: string) => run(['get', ...what.split(' '), '-o', `jsonpath=${path}`]);
    const [image, image2] = images;
    const web = `web-${v}`;

    // a Deployment: created, rolled out, image set and undone, scaled, restarted, exposed
    await run(['create', 'deployment', web, `--image=${image}`, '--replicas=3', '--', ...loop]);
    await run(['rollout', 'status', `deployment/${web}`, '--timeout=90s']);
    await run(['set', 'image', `deployment/${web}`, `*=${image2}`]);
    await run(['rollout', 'status', `deployment/${web}`, '--timeout=90s']);
    assert.equal(await get(`deployment ${web}`, '{.spec.template.spec.containers[0].image}'), image2);
    await run(['rollout', 'undo', `deployment/${web}`]);
    await run(['rollout', 'status', `deployment/${web}`, '--timeout=90s']);
    assert.equal(await get(`deployment ${web}`, '{.spec.template.spec.containers[0].image}'), image);
    assert.match(await run(['rollout', 'history', `deployment/${web}`]), /^REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>\n/m);
    await run(['scale', `deployment/${web}`, '--replicas=4']);
    await run(['rollout', 'status', `deployment/${web}`, '--timeout=90s']);
    assert.equal(await get(`deployment ${web}`, '{.status.availableReplicas}'), '4');
    await run(['rollout', 'restart', `deployment/${web}`]);
    await run(['rollout', 'status', `deployment/${web}`, '--timeout=90s']);
    await run(['expose', `deployment/${web}`, '--port=80', '--target-port=8080']);
    await until(`${web}'s EndpointSlice lists 4 ready pods`, async () => {
      const ready = await get(`endpointslices -l kubernetes.io/service-name=${web}`, '{.items[*].endpoints[?(@.conditions.ready==true)].addresses[0]}');
      return ready.split(' ').filter(Boolean).length === 4;
    }, 60_000);

    // a Job, a CronJob and a job made from it
    await run(['create', 'job', `job-${v}`, `--image=${image}`, '--', 'sh', '-c', 'echo done']);
    await run(['wait', '--for=condition=complete', `job/job-${v}`, '--timeout=90s']);
    await run(['create', 'cronjob', `cron-${v}`, `--image=${image}`, '--schedule=*/1 * * * *', '--', 'sh', '-c', 'echo tick']);
    await run(['create', 'job', `manual-${v}`, `--from=cronjob/cron-${v}`]);
    await run(['wait', '--for=condition=complete', `job/manual-${v}`, '--timeout=90s']);
    assert.equal(await get(`job manual-${v}`, '{.metadata.ownerReferences[0].kind}'), 'CronJob');
    if (containerd) assert.equal((await run(['logs', `job/job-${v}`])).trim(), 'done');

    // a StatefulSet whose pod comes back with its claim (and, on a real runtime, its data)
    const sts = `db-${v}`;
    const keep = `test -f /data/id || echo "$(date +%s)-$RANDOM" > /data/id; cat /data/id; trap 'exit 0' TERM; while true; do sleep 1; done`;
    await run(['apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: sts, namespace: 'default' },
      spec: {
        serviceName: sts, replicas: 2, selector: { matchLabels: { app: sts } },
        template: { metadata: { labels: { app: sts } }, spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'db', image, command: ['sh', '-c', keep], volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Mi' } } } }],
      },
    }));
    await run(['rollout', 'status', `statefulset/${sts}`, '--timeout=120s']);
    const claim = await get(`pod ${sts}-0`, '{.spec.volumes[0].persistentVolumeClaim.claimName}');
    assert.equal(claim, `data-${sts}-0`);
    assert.equal(await get(`pvc ${claim}`, '{.status.phase}'), 'Bound');
    const before = containerd ? (await run(['logs', `${sts}-0`])).trim() : '';
    const uid = await get(`pod ${sts}-0`, '{.metadata.uid}');
    await run(['delete', 'pod', `${sts}-0`]);
    await until(`${sts}-0 back`, async () => {
      const r = await kubectl(k.path, kubeconfig, ['get', 'pod', `${sts}-0`, '-o', 'jsonpath={.metadata.uid} {.status.phase}']);
      return r.code === 0 && !r.stdout.startsWith(uid) && r.stdout.endsWith('Running');
    }, 90_000);
    assert.equal(await get(`pod ${sts}-0`, '{.spec.volumes[0].persistentVolumeClaim.claimName}'), claim);
    if (containerd) {
      assert.match(before, /^\d+-\d+$/);
      await until(`${sts}-0 reads its data again`, async () => (await run(['logs', `${sts}-0`])).trim() === before, 30_000);
    }

    // deleting a Deployment takes its ReplicaSets and pods; --cascade=orphan leaves them
    const rsOf = async (app: string) => (await get(`replicasets -l app=${app}`, '{.items[*].metadata.name}')).split(' ').filter(Boolean);
    const podsOf = async (app: string) => (await get(`pods -l app=${app}`, '{.items[*].metadata.name}')).split(' ').filter(Boolean);
    await run(['delete', 'deployment', web]);
    await until(`${web}'s ReplicaSets and pods collected`, async () => (await rsOf(web)).length === 0 && (await podsOf(web)).length === 0, 90_000);
    const kept = `kept-${v}`;
    await run(['create', 'deployment', kept, `--image=${image}`, '--replicas=2', '--', ...loop]);
    await run(['rollout', 'status', `deployment/${kept}`, '--timeout=90s']);
    await run(['delete', 'deployment', kept, '--cascade=orphan']);
    await until(`${kept} gone`, async () => (await kubectl(k.path, kubeconfig, ['get', 'deployment', kept])).code !== 0, 30_000);
    await new Promise(r => setTimeout(r, 2000));
    assert.equal((await rsOf(kept)).length, 1, 'the orphaned ReplicaSet stays');
    assert.equal((await podsOf(kept)).length, 2, 'its pods stay');
    assert.equal(await get(`replicasets -l app=${kept}`, '{.items[0].metadata.ownerReferences}'), '', 'no owner any more');
  };
}

async function daemonSetAcrossTwoNodes(kubeconfig: string, image: string, k: { path: string }): Promise<void> {
  const run = async (args: string[], input?: string) => { const r = await kubectl(k.path, kubeconfig, args, input); assert.equal(r.code, 0, r.stderr); return r.stdout; };
  await run(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image, command: loop }] } } },
  }));
  await run(['rollout', 'status', 'daemonset/agent', '--timeout=90s']);
  const status = JSON.parse(await run(['get', 'daemonset', 'agent', '-o', 'json'])).status;
  assert.deepEqual([status.desiredNumberScheduled, status.numberReady], [2, 2]);
  const nodes = (await run(['get', 'pods', '-l', 'app=agent', '-o', 'jsonpath={.items[*].spec.nodeName}'])).split(' ').sort();
  assert.equal(new Set(nodes).size, 2, `one pod per node: ${nodes}`);
}

// the two clusters side by side: nothing on the simulated runtime touches the host network
suite('kubectl workflows against orch up', { concurrency: true }, () => {
  test('kubectl workflows against orch up on the simulated runtime', { timeout: 420_000 }, async t => {
    const versions = kubectls();
    if (!versions.length) return t.skip(skipForMissing('kubectl not installed'));
    const onTeardown = teardownOf(t);
    const dir = await tempDir(onTeardown);
    const dataDir = join(dir, 'data');
    await up(dataDir, 'sim', onTeardown);
    const kubeconfig = join(dataDir, 'admin.kubeconfig');
    await Promise.all(versions.map(workflows(kubeconfig, ['registry.local/app:1.0', 'registry.local/app:2.0'], false)));
    // a second node joins for the DaemonSet
    const pool = await startNodePool({ kubeconfig, nodes: 1 });
    onTeardown(() => pool.stop());
    await daemonSetAcrossTwoNodes(kubeconfig, 'registry.local/app:1.0', versions[0]!);
  });

  test('kubectl workflows against orch up on its own containerd', { timeout: 420_000 }, async t => {
    const skip = containerdSkipReason() ?? busyboxSkipReason();
    if (skip) return t.skip(skipForMissing(skip));
    const versions = kubectls();
    if (!versions.length) return t.skip(skipForMissing('kubectl not installed'));
    const onTeardown = teardownOf(t);
    // one cluster on the host network at a time (the bridge, the pod subnet, 10.96.0.1); released last
    onTeardown(await holdHostNetwork());
    const dir = await tempDir(onTeardown);
    const dataDir = join(dir, 'data');
    await up(dataDir, 'containerd', onTeardown);
    const kubeconfig = join(dataDir, 'admin.kubeconfig');
    const images: [string, string] = ['docker.io/library/busybox:1', 'docker.io/library/busybox:2'];
    for (const name of images) {
      await writeFile(join(dir, 'image.tar'), busyboxArchive(name));
      const code = await new Promise<number | null>(r => spawn(join(repoRoot, 'bin/orch'), ['images', 'import', '--data-dir', dataDir, join(dir, 'image.tar')], { stdio: 'ignore' }).once('exit', r));
      assert.equal(code, 0, `orch images import ${name}`);
    }
    await Promise.all(versions.map(workflows(kubeconfig, images, true)));
    // a second node (on the simulated runtime) joins for the DaemonSet
    const pool = await startNodePool({ kubeconfig, nodes: 1 });
    onTeardown(() => pool.stop());
    await daemonSetAcrossTwoNodes(kubeconfig, images[0], versions[0]!);
  });
});
