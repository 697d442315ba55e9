// Node-pressure eviction and log rotation on a real runtime: `orch server`, `orch agent` and a
// private containerd. A chatty container's log is rotated through ReopenContainerLog. An emptyDir filled past its sizeLimit gets its pod evicted (Failed, Evicted, the
// kubelet's message) while a pod within its limit runs on; an agent whose hard threshold is met
// reports DiskPressure, the node is tainted, the running pod is evicted with the threshold in
// its message and a DisruptionTarget condition, and a new pod is refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { connectCri } from '../../src/agent/cri/client.ts';
import { busyboxImage as image, startContainerdCluster } from './support/containerd-cluster.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import type { RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const getPod = async (c: RawClient, name: string) => { const r = await c.request('GET', `/api/v1/namespaces/default/pods/${name}`); return r.status === 200 ? r.json() : undefined; };
const create = (c: RawClient, obj: unknown) => c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });

function pod(name: string, node: string, command: string, sizeLimit?: string) {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
    spec: {
      nodeName: node, terminationGracePeriodSeconds: 30,
      containers: [{ name: 'main', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', command], volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
      volumes: [{ name: 'scratch', emptyDir: sizeLimit ? { sizeLimit } : {} }],
    },
  };
}

test('eviction on containerd: an emptyDir past its sizeLimit, and a node past its hard threshold', async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const cluster = await startContainerdCluster(t, 'eviction', { containerLogMaxSize: '4Ki', containerLogMaxFiles: 3, containerLogMonitorInterval: '1s' });
  const { orch, c, node, dir } = cluster;
  const cri = await connectCri(cluster.runtime.endpoint);
  t.after(() => cri.close());

  await t.test('an emptyDir filled past its sizeLimit evicts its pod; one within its limit runs on', async () => {
    assert.equal((await create(c, pod('filler', node, 'dd if=/dev/zero of=/scratch/fill bs=1M count=20; sleep 3600', '10Mi'))).status, 201);
    assert.equal((await create(c, pod('bystander', node, 'dd if=/dev/zero of=/scratch/fill bs=1M count=2; sleep 3600', '10Mi'))).status, 201);
    await until('bystander Running', async () => (await getPod(c, 'bystander'))?.status?.phase === 'Running', 60_000);
    const evicted = await until('filler evicted', async () => { const p = await getPod(c, 'filler'); return p?.status?.phase === 'Failed' && p; }, 60_000);
    assert.equal(evicted.status.reason, 'Evicted');
    assert.equal(evicted.status.message, 'Usage of EmptyDir volume "scratch" exceeds the limit "10Mi". ');
    // its container was stopped on the runtime
    const ctrs = await cri.listContainers({ filter: { labelSelector: { 'io.kubernetes.pod.uid': evicted.metadata.uid } } });
    assert.ok(ctrs.containers.length > 0 && ctrs.containers.every(x => x.state === 'CONTAINER_EXITED'), JSON.stringify(ctrs.containers.map(x => x.state)));
    const events = await until('the Evicted event', async () => {
      const r = await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dfiller');
      const items = r.status === 200 ? r.json().items : [];
      return items.find((e: any) => e.reason === 'Evicted') ?? false;
    }, 10_000);
    assert.equal(events.type, 'Warning');
    assert.equal(events.message, evicted.status.message);
    for (const k of kubectls()) {
      const get = await kubectl(k.path, orch.kubeconfig, ['get', 'pod', 'filler', '-o', 'jsonpath={.status.phase} {.status.reason}']);
      assert.equal(get.stdout, 'Failed Evicted', `${k.label}: ${get.stderr}`);
    }
    // the pod within its limit is left alone
    await new Promise(r => setTimeout(r, 2000));
    assert.equal((await getPod(c, 'bystander'))?.status?.phase, 'Running');
  });

  await t.test('a container log past containerLogMaxSize is rotated through ReopenContainerLog; old files compressed, the excess removed', async () => {
    const body = pod('chatty', node, 'i=0; while true; do i=$((i+1)); echo "line $i of a chatty container that fills its log quickly"; sleep 0.01; done');
    body.spec.terminationGracePeriodSeconds = 1;
    assert.equal((await create(c, body)).status, 201);
    const running = await until('chatty Running', async () => { const p = await getPod(c, 'chatty'); return p?.status?.phase === 'Running' && p; }, 60_000);
    const logDir = join(dir, 'logs', `default_chatty_${running.metadata.uid}`, 'main');
    const files = await until('a compressed rotated log', async () => {
      const names = await readdir(logDir).catch(() => [] as string[]);
      return names.some(n => /^0\.log\.\d{8}-\d{6}\.gz$/.test(n)) && names.some(n => /^0\.log\.\d{8}-\d{6}$/.test(n)) && names;
    }, 60_000, 500);
    assert.ok(files.includes('0.log'), `${files}`);
    assert.ok(files.length <= 3, `at most containerLogMaxFiles files: ${files}`);
    // containerd writes to the reopened file: kubectl logs keeps showing new lines
    const k = kubectls()[0]!;
    const first = await kubectl(k.path, orch.kubeconfig, ['logs', 'chatty', '--tail', '1']);
    await new Promise(r => setTimeout(r, 1500));
    const later = await kubectl(k.path, orch.kubeconfig, ['logs', 'chatty', '--tail', '1']);
    const n = (out: string) => Number(/line (\d+)/.exec(out)?.[1]);
    assert.ok(n(later.stdout) > n(first.stdout), `${first.stdout} then ${later.stdout}`);
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/chatty')).status, 200);
  });

  await t.test('a hard threshold met: DiskPressure, the taint, the running pod evicted, new pods refused', async () => {
    // more than any disk here has: the threshold is met at once
    await cluster.restartAgent({ evictionHard: { 'nodefs.available': '1000Ti', 'memory.available': '100Mi' } });
    const nodeObj = await until('DiskPressure', async () => {
      const n = (await c.request('GET', `/api/v1/nodes/${node}`)).json();
      return n.status?.conditions?.find((x: any) => x.type === 'DiskPressure')?.status === 'True' && n;
    }, 30_000);
    const cond = nodeObj.status.conditions.find((x: any) => x.type === 'DiskPressure');
    assert.deepEqual([cond.reason, cond.message], ['KubeletHasDiskPressure', 'kubelet has disk pressure']);
    await until('the disk-pressure taint', async () => {
      const n = (await c.request('GET', `/api/v1/nodes/${node}`)).json();
      return (n.spec?.taints ?? []).some((x: any) => x.key === 'node.kubernetes.io/disk-pressure' && x.effect === 'NoSchedule');
    }, 30_000);
    const evicted = await until('bystander evicted', async () => { const p = await getPod(c, 'bystander'); return p?.status?.phase === 'Failed' && p; }, 60_000);
    assert.equal(evicted.status.reason, 'Evicted');
    assert.match(evicted.status.message, /^The node was low on resource: ephemeral-storage\. Threshold quantity: 1000Ti, available: \d+\w*\. Container main was using \d+\w*, request is 0, has larger consumption of ephemeral-storage\. $/);
    // disk pressure reclaimed unused images first; the image in use and the sandbox image stay
    for (const name of [image, 'registry.k8s.io/pause:3.9']) assert.ok((await cri.imageStatus({ image: { image: name } })).image, `${name} kept`);
    const disruption = evicted.status.conditions.find((x: any) => x.type === 'DisruptionTarget');
    assert.deepEqual([disruption?.status, disruption?.reason, disruption?.message], ['True', 'TerminationByKubelet', evicted.status.message]);
    // a pod arriving under disk pressure is refused
    assert.equal((await create(c, pod('late', node, 'sleep 3600'))).status, 201);
    const refused = await until('late refused', async () => { const p = await getPod(c, 'late'); return p?.status?.phase === 'Failed' && p; }, 30_000);
    assert.deepEqual([refused.status.reason, refused.status.message], ['Evicted', 'The node had condition: [DiskPressure]. ']);
  });
});
