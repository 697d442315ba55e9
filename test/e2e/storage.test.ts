// Storage end to end with real kubectl (newest and oldest present) against `orch server` and
// simulated nodes: the default StorageClass as `kubectl get storageclass` shows it; a claim
// Pending (WaitForFirstConsumer) until a pod uses it, then provisioned on the pod's node and
// Bound, the pod Running, the volume's directory made on the node; `kubectl get pv,pvc` and
// `kubectl describe` as on a real cluster; pod and claim deleted, the volume goes too (reclaim
// policy Delete), its directory removed by the node agent. On containerd: what a pod wrote to
// its claim is read by the next pod with the same claim.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { startNodePool } from '../support/node-pool.ts';
import { skipForMissing } from '../support/requires.ts';
import { busyboxPod, getPod, podLog, startContainerdCluster } from './support/containerd-cluster.ts';
import { startOrch } from './support/orch-process.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { until } from './support/until.ts';

const image = 'registry.local/app:1.0';

const claimYaml = (ns: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: ${ns}
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
`;

const podYaml = (ns: string) => `apiVersion: v1
kind: Pod
metadata:
  name: writer
  namespace: ${ns}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - name: app
    image: ${image}
    imagePullPolicy: IfNotPresent
    command: [sh, -c, 'trap "exit 0" TERM; while true; do sleep 1; done']
    volumeMounts:
    - name: data
      mountPath: /data
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: data
`;

test('kubectl: a claim Pending until a pod uses it, then Bound on the pod\'s node; deleted with its volume', async t => {
  const volumesDir = await mkdtemp(join(tmpdir(), 'orch-local-path-'));
  t.after(() => rm(volumesDir, { recursive: true, force: true }));
  const orch = await startOrch({ args: ['--local-path-dir', volumesDir] });
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 2, images: [image] });
  t.after(() => pool.stop());
  const k = (bin: string, args: string[], input?: string) => kubectl(bin, orch.kubeconfig, args, input);

  for (const { label, path } of kubectls()) {
    await t.test(`kubectl ${label}`, async () => {
      const ns = `store-${label.replace('.', '-')}`;
      assert.equal((await k(path, ['create', 'namespace', ns])).code, 0);
      const classes = await k(path, ['get', 'storageclass']);
      assert.match(classes.stdout, /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$/m, classes.stdout);
      assert.match(classes.stdout, /^standard \(default\)\s+orch\.io\/local-path\s+Delete\s+WaitForFirstConsumer\s+false\s+\S+$/m, classes.stdout);

      const created = await k(path, ['apply', '-f', '-'], claimYaml(ns));
      assert.equal(created.code, 0, created.stderr);
      const pending = await until('the WaitForFirstConsumer event', async () => {
        const ev = await k(path, ['-n', ns, 'get', 'events', '--field-selector', 'involvedObject.name=data', '-o', 'json']);
        return JSON.parse(ev.stdout).items.find((e: any) => e.reason === 'WaitForFirstConsumer');
      }, 90_000);
      assert.equal(pending.message, 'waiting for first consumer to be created before binding');
      const before = await k(path, ['-n', ns, 'get', 'pvc', 'data']);
      assert.match(before.stdout, /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE$/m, before.stdout);
      assert.match(before.stdout, /^data\s+Pending\s+standard\s+<unset>\s+\S+$/m, before.stdout);

      assert.equal((await k(path, ['apply', '-f', '-'], podYaml(ns))).code, 0);
      const ready = await k(path, ['-n', ns, 'wait', '--for=condition=Ready', 'pod/writer', '--timeout=60s']);
      assert.equal(ready.code, 0, ready.stdout + ready.stderr);
      const pvc = JSON.parse((await k(path, ['-n', ns, 'get', 'pvc', 'data', '-o', 'json'])).stdout);
      const pod = JSON.parse((await k(path, ['-n', ns, 'get', 'pod', 'writer', '-o', 'json'])).stdout);
      assert.equal(pvc.status.phase, 'Bound');
      assert.equal(pvc.metadata.annotations['volume.kubernetes.io/selected-node'], pod.spec.nodeName);
      const pvName = pvc.spec.volumeName;
      assert.equal(pvName, `pvc-${pvc.metadata.uid}`);

      const both = await k(path, ['get', 'pv,pvc', '-n', ns]);
      assert.equal(both.code, 0, both.stderr);
      assert.match(both.stdout, /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE$/m, both.stdout);
      assert.match(both.stdout, new RegExp(`^persistentvolume/${pvName}\\s+1Gi\\s+RWO\\s+Delete\\s+Bound\\s+${ns}/data\\s+standard\\s+<unset>\\s+\\S+$`, 'm'), both.stdout);
      assert.match(both.stdout, new RegExp(`^persistentvolumeclaim/data\\s+Bound\\s+${pvName}\\s+1Gi\\s+RWO\\s+standard\\s+<unset>\\s+\\S+$`, 'm'), both.stdout);

      const described = await k(path, ['-n', ns, 'describe', 'pvc', 'data']);
      assert.equal(described.code, 0, described.stderr);
      for (const line of [/^StorageClass:\s+standard$/m, /^Status:\s+Bound$/m, new RegExp(`^Volume:\\s+${pvName}$`, 'm'), /^Capacity:\s+1Gi$/m, /^Access Modes:\s+RWO$/m, /^Used By:\s+writer$/m,
        /Normal\s+WaitForFirstConsumer\s+.*persistentvolume-controller\s+waiting for first consumer to be created before binding/,
        /Normal\s+ExternalProvisioning\s+.*Waiting for a volume to be created either by the external provisioner 'orch\.io\/local-path'/,
        /Normal\s+ProvisioningSucceeded\s+.*Successfully provisioned volume pvc-/]) assert.match(described.stdout, line, described.stdout);
      const pvShown = await k(path, ['describe', 'pv', pvName]);
      assert.match(pvShown.stdout, /^Claim:\s+\S+\/data$/m, pvShown.stdout);
      assert.match(pvShown.stdout, /Type:\s+HostPath \(bare host directory volume\)/, pvShown.stdout);
      assert.match(pvShown.stdout, /Required Terms:\s+\n\s+Term 0:\s+kubernetes\.io\/hostname in \[/, pvShown.stdout);

      // the node agent made the provisioner's directory when it mounted the volume
      const pv = JSON.parse((await k(path, ['get', 'pv', pvName, '-o', 'json'])).stdout);
      assert.equal(pv.spec.hostPath.path, join(volumesDir, `${pvName}_${ns}_data`));
      assert.deepEqual(pv.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values, [pod.spec.nodeName]);
      assert.ok((await stat(pv.spec.hostPath.path)).isDirectory());

      // the claim waits for its pod to go (pvc-protection), then its volume goes with it
      assert.equal((await k(path, ['-n', ns, 'delete', 'pvc', 'data', '--wait=false'])).code, 0);
      const terminating = await k(path, ['-n', ns, 'get', 'pvc', 'data']);
      assert.match(terminating.stdout, /^data\s+Terminating\s+/m, terminating.stdout);
      assert.equal((await k(path, ['-n', ns, 'delete', 'pod', 'writer'])).code, 0);
      await until('the claim gone', async () => (await k(path, ['-n', ns, 'get', 'pvc', 'data'])).code !== 0, 90_000);
      await until('the volume gone', async () => (await k(path, ['get', 'pv', pvName])).stderr.includes('NotFound'), 90_000);
      await assert.rejects(stat(pv.spec.hostPath.path), /ENOENT/, 'the node removed its directory');
    });
  }
});

test('containerd: a pod writes to its claim, is deleted, and a new pod with the same claim reads the data', { timeout: 240_000 }, async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const volumesDir = await mkdtemp(join(tmpdir(), 'orch-local-path-'));
  t.after(() => rm(volumesDir, { recursive: true, force: true }));
  const { c, orch } = await startContainerdCluster(t, 'storage', { syncFrequency: '1s' }, ['--local-path-dir', volumesDir]);
  const post = (path: string, obj: unknown) => c.request('POST', `/api/v1/namespaces/default/${path}`, { body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
  const withClaim = (name: string, script: string) => {
    const p = busyboxPod(name, '', { command: ['sh', '-c', `${script}; trap 'exit 0' TERM; while true; do sleep 1; done`], volumeMounts: [{ name: 'data', mountPath: '/data' }] }, { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'kept' } }] });
    // placed by the scheduler, where the claim's volume is
    delete (p.spec as { nodeName?: string }).nodeName;
    return p;
  };
  assert.equal((await post('persistentvolumeclaims', { metadata: { name: 'kept' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '64Mi' } } } })).status, 201);
  assert.equal((await post('pods', withClaim('first', 'echo "written by first" > /data/msg && echo wrote'))).status, 201);
  await until('first wrote', async () => (await podLog(c, 'first')).includes('wrote'), 90_000);
  const claim = (await c.request('GET', '/api/v1/namespaces/default/persistentvolumeclaims/kept')).json();
  assert.equal(claim.status.phase, 'Bound');
  const pv = (await c.request('GET', `/api/v1/persistentvolumes/${claim.spec.volumeName}`)).json();
  assert.equal(await readFile(join(pv.spec.hostPath.path, 'msg'), 'utf8'), 'written by first\n');

  assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/first')).status, 200);
  await until('first gone', async () => !(await getPod(c, 'first')), 60_000);
  assert.equal((await post('pods', withClaim('second', 'echo "read: $(cat /data/msg)"'))).status, 201);
  await until('second read the data', async () => (await podLog(c, 'second')).includes('read: written by first'), 90_000);
  for (const { label, path } of kubectls().slice(0, 1)) {
    const shown = await kubectl(path, orch.kubeconfig, ['get', 'pvc', 'kept']);
    assert.match(shown.stdout, new RegExp(`^kept\\s+Bound\\s+${pv.metadata.name}\\s+64Mi\\s+RWO\\s+standard\\s+`, 'm'), `${label}: ${shown.stdout}`);
  }

  assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/second')).status, 200);
  assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/persistentvolumeclaims/kept')).status, 200);
  await until('the volume gone', async () => (await c.request('GET', `/api/v1/persistentvolumes/${pv.metadata.name}`)).status === 404, 60_000);
  await assert.rejects(stat(pv.spec.hostPath.path), /ENOENT/, 'the node removed its directory and the data');
});
