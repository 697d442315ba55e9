// StatefulSets and DaemonSets as users drive them, with real kubectl (newest and oldest present)
// against a real `orch server` and two simulated nodes: a StatefulSet scaling up in ordinal
// order, rolling out and reporting through `rollout status`; a deleted StatefulSet pod coming
// back with its name and claim; a DaemonSet with a pod on each node, rolled out to a new image.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodePool } from '../support/node-pool.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

const images = ['registry.local/app:1.0', 'registry.local/app:2.0'];

const statefulSet = (ns: string) => `
apiVersion: v1
kind: Service
metadata: { name: web, namespace: ${ns} }
spec: { clusterIP: None, selector: { app: web }, ports: [{ port: 80 }] }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: web, namespace: ${ns} }
spec:
  serviceName: web
  replicas: 3
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{ name: app, image: registry.local/app:1.0 }]
`;

const claimedSet = (ns: string) => `
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: ${ns} }
spec:
  serviceName: db
  replicas: 2
  podManagementPolicy: Parallel
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{ name: app, image: registry.local/app:1.0, volumeMounts: [{ name: data, mountPath: /data }] }]
  volumeClaimTemplates:
  - metadata: { name: data }
    spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`;

const daemonSet = (ns: string) => `
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: ${ns} }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{ name: app, image: registry.local/app:1.0 }]
`;

test('kubectl drives StatefulSets and DaemonSets on two simulated nodes', { skip: kubectls().length ? false : 'no kubectl' }, async t => {
  const orch = await startOrch();
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 2, images });
  t.after(() => pool.stop());
  const c = rawClient(orch.kubeconfig);
  await until('nodes Ready', async () => (await c.request('GET', '/api/v1/nodes')).json().items?.filter((n: any) => n.status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True')).length === 2);

  for (const { label, path } of kubectls()) {
    await t.test(`kubectl ${label}`, async () => {
      const ns = `sts-${label.replace(/\W/g, '')}`;
      const k = async (...args: string[]) => {
        const r = await kubectl(path, orch.kubeconfig, ['-n', ns, ...args]);
        assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}${r.stdout}`);
        return r.stdout;
      };
      const apply = async (yaml: string) => {
        const r = await kubectl(path, orch.kubeconfig, ['apply', '-f', '-'], yaml);
        assert.equal(r.code, 0, r.stderr);
      };
      const json = async (...args: string[]) => JSON.parse(await k(...args, '-o', 'json'));
      const livePods = async (app: string) => (await json('get', 'pods', '-l', `app=${app}`)).items.filter((p: any) => !p.metadata.deletionTimestamp);
      await kubectl(path, orch.kubeconfig, ['create', 'namespace', ns]);

      // a StatefulSet scales up one ordinal at a time, each after the one before is Ready
      await apply(statefulSet(ns));
      const done = await k('rollout', 'status', 'statefulset/web', '--timeout=90s');
      // partition defaults to 0, so kubectl reports a partitioned roll out, as on any cluster
      assert.match(done, /partitioned roll out complete: 3 new pods have been updated\.\.\./);
      assert.match(done, /Waiting for \d pods to be ready/, 'rollout status watched the pods come up');
      const pods = await livePods('web');
      assert.deepEqual(pods.map((p: any) => p.metadata.name).sort(), ['web-0', 'web-1', 'web-2']);
      const byName = Object.fromEntries(pods.map((p: any) => [p.metadata.name, p]));
      for (let i = 1; i < 3; i++) {
        const before = Date.parse(byName[`web-${i - 1}`].status.conditions.find((x: any) => x.type === 'Ready').lastTransitionTime);
        assert.ok(Date.parse(byName[`web-${i}`].metadata.creationTimestamp) >= before, `web-${i} made after web-${i - 1} was ready`);
        assert.equal(byName[`web-${i}`].spec.hostname, `web-${i}`);
        assert.equal(byName[`web-${i}`].spec.subdomain, 'web');
      }
      const creates = (await json('get', 'events', '--field-selector', 'involvedObject.kind=StatefulSet,reason=SuccessfulCreate')).items
        .sort((a: any, b: any) => a.metadata.name.localeCompare(b.metadata.name)).map((e: any) => e.message);
      assert.deepEqual(creates, [0, 1, 2].map(i => `create Pod web-${i} in StatefulSet web successful`));
      assert.match(await k('get', 'statefulset', 'web'), /^NAME\s+READY\s+AGE\nweb\s+3\/3\s+/);

      // a new image rolls out from the highest ordinal down
      await k('set', 'image', 'statefulset/web', 'app=registry.local/app:2.0');
      assert.match(await k('rollout', 'status', 'statefulset/web', '--timeout=120s'), /partitioned roll out complete: 3 new pods have been updated\.\.\./);
      await until('new image everywhere', async () => { const p = await livePods('web'); return p.length === 3 && p.every((x: any) => x.spec.containers[0].image.endsWith(':2.0')); });
      const sts = await json('get', 'statefulset', 'web');
      assert.equal(sts.status.currentRevision, sts.status.updateRevision);
      assert.equal(sts.status.updatedReplicas, 3);
      assert.match(await k('rollout', 'history', 'statefulset/web'), /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
      // undo goes back to revision 1's template, renumbered as revision 3
      assert.match(await k('rollout', 'undo', 'statefulset/web'), /statefulset.apps\/web rolled back/);
      assert.match(await k('rollout', 'status', 'statefulset/web', '--timeout=120s'), /partitioned roll out complete: 3 new pods have been updated\.\.\./);
      await until('old image back', async () => { const p = await livePods('web'); return p.length === 3 && p.every((x: any) => x.spec.containers[0].image.endsWith(':1.0')); });
      assert.match(await k('rollout', 'history', 'statefulset/web'), /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/);

      // kubectl scale: up adds the next ordinal, down removes the highest first
      assert.match(await k('scale', 'statefulset/web', '--replicas=4'), /statefulset.apps\/web scaled/);
      await k('rollout', 'status', 'statefulset/web', '--timeout=90s');
      await until('web-3', async () => (await livePods('web')).map((p: any) => p.metadata.name).sort().join() === 'web-0,web-1,web-2,web-3');
      // the rolling updates above deleted pods too: only the events recorded from here on count
      const deleteEvents = async () => (await json('get', 'events', '--field-selector', 'involvedObject.kind=StatefulSet,reason=SuccessfulDelete')).items
        .sort((a: any, b: any) => a.metadata.name.localeCompare(b.metadata.name));
      const earlier = new Set((await deleteEvents()).map((e: any) => e.metadata.name));
      await k('scale', 'statefulset/web', '--replicas=2');
      await until('scaled to 2', async () => (await livePods('web')).map((p: any) => p.metadata.name).sort().join() === 'web-0,web-1');
      const scaleDown = await until('two delete events', async () => {
        const d = (await deleteEvents()).filter((e: any) => !earlier.has(e.metadata.name)).map((e: any) => e.message);
        return d.length >= 2 && d;
      });
      assert.deepEqual(scaleDown, ['delete Pod web-3 in StatefulSet web successful', 'delete Pod web-2 in StatefulSet web successful']);

      // a StatefulSet's pod deleted comes back with the same name and the same claim
      await apply(claimedSet(ns));
      await until('db pods and claims', async () => (await livePods('db')).length === 2 && (await json('get', 'pvc')).items.length === 2);
      const claims = (await json('get', 'pvc')).items.map((x: any) => x.metadata.name).sort();
      assert.deepEqual(claims, ['data-db-0', 'data-db-1']);
      const old = (await json('get', 'pod', 'db-0')).metadata.uid;
      await k('delete', 'pod', 'db-0', '--wait=false');
      const back = await until('db-0 again', async () => { const r = await kubectl(path, orch.kubeconfig, ['-n', ns, 'get', 'pod', 'db-0', '-o', 'json']); if (r.code) return false; const p = JSON.parse(r.stdout); return p.metadata.uid !== old && !p.metadata.deletionTimestamp && p; });
      assert.deepEqual(back.spec.volumes.find((v: any) => v.name === 'data'), { name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } });
      assert.equal((await json('get', 'pvc')).items.length, 2, 'the claim is reused, not made again');

      // a DaemonSet runs one pod on each node
      await apply(daemonSet(ns));
      assert.match(await k('rollout', 'status', 'daemonset/agent', '--timeout=90s'), /daemon set "agent" successfully rolled out/);
      const agents = await livePods('agent');
      assert.deepEqual(agents.map((p: any) => p.spec.nodeName).sort(), [...pool.names].sort());
      assert.match(await k('get', 'daemonset', 'agent'), /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\nagent\s+2\s+2\s+2\s+2\s+2\s+<none>\s+/);
      await k('set', 'image', 'daemonset/agent', 'app=registry.local/app:2.0');
      assert.match(await k('rollout', 'status', 'daemonset/agent', '--timeout=120s'), /daemon set "agent" successfully rolled out/);
      await until('daemon pods replaced', async () => { const p = await livePods('agent'); return p.length === 2 && p.every((x: any) => x.spec.containers[0].image.endsWith(':2.0')); });
      assert.match(await k('rollout', 'history', 'daemonset/agent'), /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
      assert.match(await k('rollout', 'undo', 'daemonset/agent'), /daemonset.apps\/agent rolled back/);
      assert.match(await k('rollout', 'status', 'daemonset/agent', '--timeout=120s'), /daemon set "agent" successfully rolled out/);
      await until('daemon pods back', async () => { const p = await livePods('agent'); return p.length === 2 && p.every((x: any) => x.spec.containers[0].image.endsWith(':1.0')); });
      assert.match(await k('rollout', 'restart', 'daemonset/agent'), /daemonset.apps\/agent restarted/);
      assert.match(await k('rollout', 'status', 'daemonset/agent', '--timeout=120s'), /daemon set "agent" successfully rolled out/);
      const ds = await json('get', 'daemonset', 'agent');
      assert.equal(ds.metadata.annotations['deprecated.daemonset.template.generation'], '4');
      await until('restarted pods', async () => { const p = await livePods('agent'); return p.length === 2 && p.every((x: any) => x.metadata.labels['pod-template-generation'] === '4' && x.spec.containers[0].image.endsWith(':1.0')); });
      await k('delete', 'namespace', ns, '--wait=false');
    });
  }
});
