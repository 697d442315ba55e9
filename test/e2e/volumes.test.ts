// Pod volumes end to end. What the agent decides before a container exists (FailedMount events
// for a missing ConfigMap or a hostPath of the wrong type, then the pod starting once the object
// appears; a projected token fetched for the pod; CreateContainerConfigError for an unset subPathExpr variable)
// runs on both runtimes, the simulated one and containerd. What a container sees runs on
// containerd, read from inside it through its log: Secret and ConfigMap items with their modes
// and a Secret's update (the Secret on a tmpfs), hostPath types, a tmpfs sized by the pod's memory limit, a subPathExpr
// directory from the pod's name, a read-only mount, a non-root container reaching volumes through
// the pod's fsGroup, mount propagation between two containers and the host, a stray pod directory
// cleaned up when the agent starts; and everything unmounted and removed when the pod goes.

import { suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerdSkipReason, startContainerd } from '../support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../support/oci-image.ts';
import { startNodePool } from '../support/node-pool.ts';
import { skipForMissing } from '../support/requires.ts';
import { startAgentProcess } from './support/agent-process.ts';
import { startOrch } from './support/orch-process.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';
import { runMount } from '../../src/agent/pods/volumes/host-mounts.ts';

const json = { 'content-type': 'application/json' };
const post = (c: RawClient, path: string, obj: unknown) => c.request('POST', `/api/v1/namespaces/default/${path}`, { body: JSON.stringify(obj), headers: json });
const getPod = async (c: RawClient, name: string) => { const r = await c.request('GET', `/api/v1/namespaces/default/pods/${name}`); return r.status === 200 ? r.json() : undefined; };
const events = async (c: RawClient, name: string) => (await c.request('GET', `/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=${name}`)).json().items as Array<{ reason: string; message: string; type: string }>;
const waitingOf = async (c: RawClient, name: string) => (await getPod(c, name))?.status?.containerStatuses?.[0]?.state?.waiting;
const logOf = async (c: RawClient, name: string, container = '') => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}/log${container ? `?container=${container}` : ''}`)).body;

interface Runtime { c: RawClient; node: string; image: string; rootDir: string; kubeconfig: string }

function podBody(name: string, rt: Runtime, container: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return { metadata: { name }, spec: { nodeName: rt.node, terminationGracePeriodSeconds: 2, containers: [{ name: 'main', image: rt.image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'while true; do sleep 1; done'], ...container }], ...spec } };
}

/** the cases decided by the agent before any container runs: the same on every runtime */
async function agentSideCases(t: { test(name: string, fn: () => Promise<void>): Promise<void> }, rt: Runtime): Promise<void> {
  const { c } = rt;
  await t.test('a missing ConfigMap: FailedMount in the kubelet\'s words, ContainerCreating; the pod starts once it exists', async () => {
    assert.equal((await post(c, 'pods', podBody('needs-cfg', rt, { volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] }, { volumes: [{ name: 'cfg', configMap: { name: 'later' } }] }))).status, 201);
    const ev = await until('FailedMount', async () => (await events(c, 'needs-cfg')).find(e => e.reason === 'FailedMount'));
    assert.deepEqual([ev.type, ev.message], ['Warning', 'MountVolume.SetUp failed for volume "cfg" : configmap "later" not found']);
    const p = await getPod(c, 'needs-cfg');
    assert.equal(p.status.phase, 'Pending');
    assert.deepEqual(p.status.containerStatuses[0].state, { waiting: { reason: 'ContainerCreating' } });
    for (const k of kubectls()) {
      const get = await kubectl(k.path, rt.kubeconfig, ['get', 'pod', 'needs-cfg']);
      assert.match(get.stdout, /^needs-cfg\s+0\/1\s+ContainerCreating\s+0/m, `${k.label}: ${get.stdout}${get.stderr}`);
      const described = await kubectl(k.path, rt.kubeconfig, ['describe', 'pod', 'needs-cfg']);
      assert.match(described.stdout, /Warning\s+FailedMount\s+.*MountVolume\.SetUp failed for volume "cfg" : configmap "later" not found/, `${k.label}: ${described.stdout}`);
    }
    assert.equal((await post(c, 'configmaps', { metadata: { name: 'later' }, data: { k: 'v' } })).status, 201);
    await until('needs-cfg Running', async () => (await getPod(c, 'needs-cfg'))?.status?.phase === 'Running', 40_000);
  });

  await t.test('a hostPath of the wrong type: FailedMount with the kubelet\'s type check message', async () => {
    const file = join(rt.rootDir, 'not-a-dir');
    await writeFile(file, 'x');
    assert.equal((await post(c, 'pods', podBody('wrong-type', rt, { volumeMounts: [{ name: 'h', mountPath: '/h' }] }, { volumes: [{ name: 'h', hostPath: { path: file, type: 'Directory' } }] }))).status, 201);
    const ev = await until('FailedMount', async () => (await events(c, 'wrong-type')).find(e => e.reason === 'FailedMount'));
    assert.equal(ev.message, `MountVolume.SetUp failed for volume "h" : hostPath type check failed: ${file} is not a directory`);
    assert.equal((await waitingOf(c, 'wrong-type'))?.reason, 'ContainerCreating');
  });

  await t.test('a projected serviceAccountToken is asked for and the pod runs; an unset subPathExpr variable: CreateContainerConfigError naming it', async () => {
    const token = podBody('token', rt, { volumeMounts: [{ name: 'tok', mountPath: '/var/run/secrets/tokens' }] }, { volumes: [{ name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600, audience: 'vault' } }] } }] });
    const expr = podBody('expr', rt, { volumeMounts: [{ name: 'd', mountPath: '/d', subPathExpr: '$(NOT_SET)/x' }] }, { volumes: [{ name: 'd', emptyDir: {} }] });
    for (const b of [token, expr]) assert.equal((await post(c, 'pods', b)).status, 201);
    await until('token pod Running', async () => (await getPod(c, 'token'))?.status?.phase === 'Running', 40_000);
    const x = await until('expr refused', async () => { const w = await waitingOf(c, 'expr'); return w?.reason === 'CreateContainerConfigError' && w; });
    assert.equal(x.message, 'missing value for NOT_SET');
    // the event is recorded apart from the status, and may come a little after it
    await until('the Failed event', async () => (await events(c, 'expr')).some(e => e.reason === 'Failed' && e.message === 'Error: missing value for NOT_SET'), 10_000);
  });
}

// the two runtimes' clusters side by side: each has its own server, node and directories, and
// the simulated one's cases are otherwise idle waiting beside containerd's
suite('pod volumes on each runtime', { concurrency: true }, () => {
  test('volumes on the simulated runtime: failures the agent reports before containers run', async t => {
    const orch = await startOrch();
    t.after(async () => { await orch.stop(); await orch.cleanup(); });
    const image = 'registry.local/app:1.0';
    const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 1, images: [image] });
    t.after(() => pool.stop());
    const c = rawClient(orch.kubeconfig);
    const rootDir = await mkdtemp(join(tmpdir(), 'orch-vol-sim-'));
    t.after(() => rm(rootDir, { recursive: true, force: true }));
    await until('the node', async () => (await c.request('GET', `/api/v1/nodes/${pool.names[0]}`)).status === 200);
    await agentSideCases(t, { c, node: pool.names[0]!, image, rootDir, kubeconfig: orch.kubeconfig });
  });

  test('volumes on containerd: what containers see, and what the pod leaves behind', async t => {
    const skip = containerdSkipReason() ?? busyboxSkipReason();
    if (skip) return t.skip(skipForMissing(skip));
    const teardown: Array<() => Promise<unknown>> = [];
    t.after(async () => { for (const fn of teardown.reverse()) await fn().catch(() => undefined); });
    const runtime = await startContainerd();
    teardown.push(() => runtime.stop());
    const image = 'docker.io/library/busybox:1.36';
    await importBusyboxImage(runtime, [image, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
    const orch = await startOrch({ args: [] });
    teardown.push(async () => { await orch.stop(); await orch.cleanup(); });
    const hostDir = await mkdtemp(join(tmpdir(), 'orch-vol-host-'));
    teardown.push(() => rm(hostDir, { recursive: true, force: true }));
    const node = `vol-node-${process.pid}`;
    const agentOptions = {
      kubeconfig: orch.kubeconfig,
      args: ['--hostname-override', node, '--node-ip', '127.0.0.1', '--container-runtime-endpoint', runtime.endpoint],
      config: { nodeStatusUpdateFrequency: '1s', podLogsDir: join(hostDir, 'logs'), syncFrequency: '2s', staticPodPath: join(hostDir, 'manifests') },
    };
    let agent = await startAgentProcess(agentOptions);
    teardown.push(async () => { await agent.stop(); await agent.cleanup(); });
    const c = rawClient(orch.kubeconfig);
    await until('the node', async () => (await c.request('GET', `/api/v1/nodes/${node}`)).status === 200);
    const rt: Runtime = { c, node, image, rootDir: hostDir, kubeconfig: orch.kubeconfig };

    await agentSideCases(t, rt);

    await t.test('inside the container: items and modes, hostPath types, a tmpfs sized by the pod limit, subPathExpr, readOnly; a Secret update arrives', async () => {
      await mkdir(join(hostDir, 'shared'));
      await writeFile(join(hostDir, 'shared/hello'), 'from the host');
      await writeFile(join(hostDir, 'single'), 'one file');
      const sockPath = join(hostDir, 'app.sock');
      const server = createServer();
      await new Promise<void>(r => server.listen(sockPath, r));
      teardown.push(async () => server.close());
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      assert.equal((await post(c, 'secrets', { metadata: { name: 'creds' }, data: { token: b64('first'), other: b64('x') } })).status, 201);
      assert.equal((await post(c, 'configmaps', { metadata: { name: 'settings' }, data: { color: 'blue', size: 'L' } })).status, 201);
      const script = [
        'echo "secret-mode=$(stat -L -c %a /sec/creds/token) secret-files=$(ls /sec | tr \'\\n\' \' \')"',
        'echo "cfg-mode=$(stat -L -c %a /cfg/colour) cfg=$(cat /cfg/colour)"',
        'echo "host-dir=$(cat /host-dir/hello) host-file=$(cat /host-file)"',
        '[ -S /app.sock ] && echo "socket=yes"',
        '[ -c /host-null ] && echo "chardev=yes"',
        'echo made-inside > /created/by-pod',
        'grep " /ram " /proc/mounts',
        'grep " /sec " /proc/mounts',
        'echo "$POD_NAME" > /work/who',
        'touch /ro/x 2>/dev/null && echo "ro-mount=writable" || echo "ro-mount=refused"',
        'while true; do echo "token=$(cat /sec/creds/token)"; sleep 1; done',
      ].join('; ');
      const body = podBody('seer', rt, {
        command: ['sh', '-c', script],
        env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        resources: { limits: { memory: '48Mi' } },
        volumeMounts: [
          { name: 'sec', mountPath: '/sec' }, { name: 'cfg', mountPath: '/cfg' },
          { name: 'hd', mountPath: '/host-dir' }, { name: 'hf', mountPath: '/host-file' }, { name: 'sock', mountPath: '/app.sock' }, { name: 'null', mountPath: '/host-null' }, { name: 'made', mountPath: '/created' },
          { name: 'ram', mountPath: '/ram' }, { name: 'scratch', mountPath: '/work', subPathExpr: '$(POD_NAME)' }, { name: 'scratch', mountPath: '/ro', readOnly: true },
        ],
      }, {
        volumes: [
          { name: 'sec', secret: { secretName: 'creds', defaultMode: 0o400, items: [{ key: 'token', path: 'creds/token' }] } },
          { name: 'cfg', configMap: { name: 'settings', items: [{ key: 'color', path: 'colour', mode: 0o600 }] } },
          { name: 'hd', hostPath: { path: join(hostDir, 'shared'), type: 'Directory' } },
          { name: 'hf', hostPath: { path: join(hostDir, 'single'), type: 'File' } },
          { name: 'sock', hostPath: { path: sockPath, type: 'Socket' } },
          { name: 'null', hostPath: { path: '/dev/null', type: 'CharDevice' } },
          { name: 'made', hostPath: { path: join(hostDir, 'made/here'), type: 'DirectoryOrCreate' } },
          { name: 'ram', emptyDir: { medium: 'Memory' } },
          { name: 'scratch', emptyDir: {} },
        ],
      });
      const created = await post(c, 'pods', body);
      assert.equal(created.status, 201, created.body);
      const uid = created.json().metadata.uid;
      await until('seer prints its first token', async () => (await logOf(c, 'seer')).includes('token=first'), 60_000);
      const log = await logOf(c, 'seer');
      assert.match(log, /^secret-mode=400 secret-files=creds $/m);
      assert.match(log, /^cfg-mode=600 cfg=blue$/m);
      assert.match(log, /^host-dir=from the host host-file=one file$/m);
      assert.match(log, /^socket=yes$/m);
      assert.match(log, /^chardev=yes$/m);
      assert.match(log, /^tmpfs \/ram tmpfs .*size=49152k/m, 'the tmpfs is as large as the pod\'s memory limit');
      assert.match(log, /^ro-mount=refused$/m);
      assert.match(log, /^tmpfs \/sec tmpfs ro,.*size=49152k/m, 'the Secret is on a tmpfs of its own, mounted read-only');
      assert.equal(await readFile(join(hostDir, 'made/here/by-pod'), 'utf8'), 'made-inside\n');
      const scratch = join(agent.rootDir, 'pods', uid, 'volumes/kubernetes.io~empty-dir/scratch');
      assert.equal(await readFile(join(scratch, 'seer/who'), 'utf8'), 'seer\n', 'the subPathExpr directory is named from the pod');

      const sec = (await c.request('GET', '/api/v1/namespaces/default/secrets/creds')).json();
      assert.equal((await c.request('PUT', '/api/v1/namespaces/default/secrets/creds', { body: JSON.stringify({ ...sec, data: { token: b64('second') } }), headers: json })).status, 200);
      const started = Date.now();
      await until('the new token inside', async () => (await logOf(c, 'seer')).includes('token=second'), 30_000);
      console.log(`# a Secret update reached the running container in ${Date.now() - started} ms (sync period 2 s)`);
      assert.doesNotMatch(await logOf(c, 'seer'), /^token=$/m, 'the file never went missing');

      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/seer')).status, 200);
      await until('seer gone', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/seer')).status === 404, 30_000);
      await until('its directory removed', async () => !(await stat(join(agent.rootDir, 'pods', uid)).catch(() => undefined)), 10_000);
      const mounts = await readFile('/proc/self/mountinfo', 'utf8');
      assert.ok(!mounts.includes(uid), 'nothing of the pod stays mounted');
      assert.equal(await readFile(join(hostDir, 'shared/hello'), 'utf8'), 'from the host', 'hostPath contents are the host\'s and stay');
    });

    await t.test('in-cluster credentials: the ServiceAccount plugin\'s kube-api-access volume holds a token for the pod, the cluster CA and the namespace', async () => {
      const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
      assert.equal((await post(c, 'pods', podBody('incluster', rt, { command: ['sh', '-c', `echo "token=$(cat ${dir}/token)"; echo "ns=$(cat ${dir}/namespace)"; echo "ca=$(head -1 ${dir}/ca.crt)"; while true; do sleep 1; done`] }))).status, 201);
      const log = await until('credentials printed', async () => { const l = String(await logOf(c, 'incluster')); return l.includes('ca=') && l; }, 60_000);
      assert.match(log, /^ns=default$/m);
      assert.match(log, /^ca=-----BEGIN CERTIFICATE-----$/m);
      const token = /^token=(\S+)$/m.exec(log)![1]!;
      const review = (await c.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }), headers: json })).json();
      assert.equal(review.status.authenticated, true, JSON.stringify(review.status));
      assert.equal(review.status.user.username, 'system:serviceaccount:default:default');
      assert.deepEqual(review.status.user.extra['authentication.kubernetes.io/pod-name'], ['incluster']);
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/incluster?gracePeriodSeconds=0')).status, 200);
    });

    await t.test('fsGroup: a non-root container reads a 0400 Secret and writes an emptyDir through the pod\'s group; the Secret deleted, it runs on with the last files', async () => {
      const body = podBody('grouped', rt, {
        command: ['sh', '-c', 'echo "secret=$(cat /sec/token)"; echo hi > /data/f && echo "write=ok"; echo "groups=$(id -G)"; ls -ln /data/f; while true; do echo "still=$(cat /sec/token)"; sleep 1; done'],
        volumeMounts: [{ name: 'sec', mountPath: '/sec' }, { name: 'data', mountPath: '/data' }],
      }, {
        securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 2000 },
        volumes: [{ name: 'sec', secret: { secretName: 'creds', defaultMode: 0o400 } }, { name: 'data', emptyDir: {} }],
      });
      assert.equal((await post(c, 'pods', body)).status, 201);
      await until('grouped reports', async () => /^-\S+ +\d+ +1000 +2000 /m.test(await logOf(c, 'grouped')), 60_000);
      const log = await logOf(c, 'grouped');
      assert.match(log, /^secret=second$/m);
      assert.match(log, /^write=ok$/m);
      assert.match(log, /^groups=1000 2000$/m);
      // the Secret deleted under the running pod: told as FailedMount, the pod runs on with the last files
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/secrets/creds')).status, 200);
      const ev = await until('FailedMount for the deleted Secret', async () => (await events(c, 'grouped')).find(e => e.reason === 'FailedMount'), 20_000);
      assert.equal(ev.message, 'MountVolume.SetUp failed for volume "sec" : secret "creds" not found');
      await new Promise(r => setTimeout(r, 2500));
      assert.equal((await getPod(c, 'grouped')).status.phase, 'Running');
      assert.equal((await logOf(c, 'grouped')).trim().split('\n').at(-1), 'still=second');
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/grouped?gracePeriodSeconds=0')).status, 200);
    });

    await t.test('a pod directory nothing knows (its pod deleted while the agent was down) is unmounted and removed when the agent starts', async () => {
      await agent.kill();
      const stray = join(agent.rootDir, 'pods', 'stray-uid', 'volumes', 'kubernetes.io~empty-dir', 'ram');
      await mkdir(stray, { recursive: true });
      await runMount('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', stray]);
      agent = await startAgentProcess({ ...agentOptions, rootDir: agent.rootDir, port: agent.port });
      await until('the stray directory removed', async () => !(await stat(join(agent.rootDir, 'pods', 'stray-uid')).catch(() => undefined)), 20_000);
      assert.ok(!(await readFile('/proc/self/mountinfo', 'utf8')).includes('stray-uid'), 'its tmpfs unmounted');
      const running = await getPod(c, 'needs-cfg');
      assert.ok((await stat(join(agent.rootDir, 'pods', running.metadata.uid, 'volumes'))).isDirectory(), 'a running pod\'s volumes stay');
    });

    await t.test('mount propagation: a mount made in a Bidirectional volume reaches the host and a HostToContainer container', async () => {
      const body = podBody('propagate', rt, {
        name: 'mounter',
        securityContext: { privileged: true },
        command: ['sh', '-c', 'mkdir -p /shared/inner && mount -t tmpfs tmpfs /shared/inner && echo through > /shared/inner/flag && echo mounted; while true; do sleep 1; done'],
        volumeMounts: [{ name: 'shared', mountPath: '/shared', mountPropagation: 'Bidirectional' }],
      }, { volumes: [{ name: 'shared', emptyDir: {} }] });
      body.spec.containers.push({ name: 'watcher', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'while true; do echo "flag=$(cat /shared/inner/flag 2>/dev/null)"; sleep 1; done'], volumeMounts: [{ name: 'shared', mountPath: '/shared', mountPropagation: 'HostToContainer' }] } as never);
      const created = await post(c, 'pods', body);
      assert.equal(created.status, 201, created.body);
      const uid = created.json().metadata.uid;
      await until('the watcher sees the mounter\'s tmpfs', async () => (await logOf(c, 'propagate', 'watcher')).includes('flag=through'), 60_000);
      const shared = join(agent.rootDir, 'pods', uid, 'volumes/kubernetes.io~empty-dir/shared');
      assert.equal(await readFile(join(shared, 'inner/flag'), 'utf8'), 'through\n', 'the host sees it too');
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/propagate')).status, 200);
      await until('propagate gone', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/propagate')).status === 404, 30_000);
      await until('its mounts gone', async () => !(await readFile('/proc/self/mountinfo', 'utf8')).includes(uid), 10_000);
    });
  });
});
