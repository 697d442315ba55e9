// Deployments as users drive them, with real kubectl (newest and oldest present) against a real
// `orch server` and simulated nodes, so pods run and turn Ready: create, rollout status, set
// image and rollout undo, scale, rollout restart, pause/resume and history, as on a cluster.

import { suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { startNodePool } from '../support/node-pool.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';

const images = ['registry.local/app:1.0', 'registry.local/app:2.0'];

// the two clusters side by side
suite('Deployments, ReplicaSets and ReplicationControllers through kubectl', { concurrency: true }, () => {
  test('kubectl drives Deployments through rollouts, rollback, scaling and restarts', { ...requires(!kubectls().length && 'kubectl not installed'), concurrency: true }, async t => {
    const orch = await startOrch();
    t.after(async () => { await orch.stop(); await orch.cleanup(); });
    const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 2, images, unpullableImages: ['registry.local/missing:1.0'] });
    t.after(() => pool.stop());
    const c = rawClient(orch.kubeconfig);
    await until('nodes Ready', async () => (await c.request('GET', '/api/v1/nodes')).json().items?.filter((n: any) => n.status?.conditions?.some((x: any) => x.type === 'Ready' && x.status === 'True')).length === 2);

    // each version in a namespace of its own, the two side by side
    await Promise.all(kubectls().map(({ label, path }) => t.test(`kubectl ${label}`, async () => {
      const ns = `deploy-${label.replace(/\W/g, '')}`;
      const k = async (...args: string[]) => {
        const r = await kubectl(path, orch.kubeconfig, ['-n', ns, ...args]);
        assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}${r.stdout}`);
        return r.stdout;
      };
      const deploymentJson = async () => JSON.parse(await k('get', 'deployment', 'web', '-o', 'json'));
      const rolloutStatus = async () => {
        const out = await k('rollout', 'status', 'deployment/web', '--timeout=90s');
        assert.match(out, /deployment "web" successfully rolled out/);
      };
      const liveImages = async () => {
        const pods = JSON.parse(await k('get', 'pods', '-l', 'app=web', '-o', 'json')).items.filter((p: any) => !p.metadata.deletionTimestamp);
        return pods.map((p: any) => p.spec.containers[0].image);
      };
      await kubectl(path, orch.kubeconfig, ['create', 'namespace', ns]);

      assert.match(await k('create', 'deployment', 'web', '--image=registry.local/app:1.0', '--replicas=3'), /deployment.apps\/web created/);
      await rolloutStatus();
      const table = await k('get', 'deployment', 'web');
      assert.match(table, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+3\/3\s+3\s+3\s+/);
      const d1 = await deploymentJson();
      assert.equal(d1.metadata.annotations['deployment.kubernetes.io/revision'], '1');
      assert.deepEqual(d1.status.conditions.map((x: any) => `${x.type}=${x.status}/${x.reason}`).sort(), ['Available=True/MinimumReplicasAvailable', 'Progressing=True/NewReplicaSetAvailable']);
      const pods = JSON.parse(await k('get', 'pods', '-l', 'app=web', '-o', 'json')).items;
      assert.equal(pods.length, 3);
      assert.ok(pods.every((p: any) => p.status.phase === 'Running' && p.spec.nodeName), 'pods running on the simulated nodes');
      const rsTable = await k('get', 'rs');
      assert.match(rsTable, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nweb-[a-z0-9]+\s+3\s+3\s+3\s+/);

      // a new image, then back
      assert.match(await k('set', 'image', 'deployment/web', 'app=registry.local/app:2.0'), /deployment.apps\/web image updated/);
      await rolloutStatus();
      await until('only new pods', async () => { const i = await liveImages(); return i.length === 3 && i.every((x: string) => x.endsWith(':2.0')); });
      const events = await k('get', 'events', '--field-selector', 'involvedObject.kind=Deployment', '-o', 'json');
      const messages = JSON.parse(events).items.map((e: any) => e.message);
      assert.ok(messages.some((m: string) => /^Scaled up replica set web-[a-z0-9]+ from 0 to 1$/.test(m)), messages.join('\n'));
      assert.ok(messages.some((m: string) => /^Scaled down replica set web-[a-z0-9]+ from 3 to 2$/.test(m)), messages.join('\n'));
      // the Deployment's annotations reach its new ReplicaSet, where history reads the change cause
      await k('annotate', 'deployment/web', 'kubernetes.io/change-cause=image 2.0');
      const history = await until('change cause in history', async () => { const h = await k('rollout', 'history', 'deployment/web'); return /\n2\s+image 2\.0/.test(h) && h; });
      assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+image 2\.0/);
      assert.match(await k('rollout', 'undo', 'deployment/web'), /deployment.apps\/web rolled back/);
      await rolloutStatus();
      await until('old image back', async () => { const i = await liveImages(); return i.length === 3 && i.every((x: string) => x.endsWith(':1.0')); });
      const d3 = await deploymentJson();
      assert.equal(d3.metadata.annotations['deployment.kubernetes.io/revision'], '3');
      assert.equal(d3.spec.template.spec.containers[0].image, 'registry.local/app:1.0');
      // kubectl's undo copies the ReplicaSet's annotations back: revision 1 had no change cause
      assert.match(await k('rollout', 'history', 'deployment/web'), /REVISION\s+CHANGE-CAUSE\n2\s+image 2\.0\n3\s+<none>/);
      assert.match(await k('rollout', 'history', 'deployment/web', '--revision=2'), /Image:\s+registry\.local\/app:2\.0/);

      // scale
      assert.match(await k('scale', 'deployment/web', '--replicas=5'), /deployment.apps\/web scaled/);
      await rolloutStatus();
      await until('5 ready', async () => (await deploymentJson()).status.readyReplicas === 5);
      assert.equal(JSON.parse(await k('get', 'rs', '-o', 'json')).items.length, 2, 'a resize makes no ReplicaSet');

      // restart: a new ReplicaSet with the restartedAt template annotation
      assert.match(await k('rollout', 'restart', 'deployment/web'), /deployment.apps\/web restarted/);
      await rolloutStatus();
      const d4 = await deploymentJson();
      assert.equal(d4.metadata.annotations['deployment.kubernetes.io/revision'], '4');
      assert.ok(d4.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']);
      assert.equal(d4.status.updatedReplicas, 5);

      // pause and resume
      assert.match(await k('rollout', 'pause', 'deployment/web'), /deployment.apps\/web paused/);
      await until('paused condition', async () => (await deploymentJson()).status.conditions.some((x: any) => x.type === 'Progressing' && x.reason === 'DeploymentPaused'));
      await k('set', 'image', 'deployment/web', 'app=registry.local/app:2.0');
      const undoPaused = await kubectl(path, orch.kubeconfig, ['-n', ns, 'rollout', 'undo', 'deployment/web']);
      assert.notEqual(undoPaused.code, 0);
      assert.match(undoPaused.stderr, /you cannot rollback a paused deployment; resume it first/);
      assert.match(await k('rollout', 'resume', 'deployment/web'), /deployment.apps\/web resumed/);
      await rolloutStatus();
      await until('the paused change rolled out', async () => { const i = await liveImages(); return i.length === 5 && i.every((x: string) => x.endsWith(':2.0')); });
      assert.equal((await deploymentJson()).metadata.annotations['deployment.kubernetes.io/revision'], '5');
      // a rollout that cannot progress: rollout status fails once the deadline passes
      await k('set', 'image', 'deployment/web', 'app=registry.local/missing:1.0');
      await k('patch', 'deployment/web', '-p', '{"spec":{"progressDeadlineSeconds":2}}');
      const stuck = await kubectl(path, orch.kubeconfig, ['-n', ns, 'rollout', 'status', 'deployment/web', '--timeout=60s']);
      assert.equal(stuck.code, 1, stuck.stdout + stuck.stderr);
      assert.match(stuck.stderr, /error: deployment "web" exceeded its progress deadline/);
      // progress after the deadline (the surge's last pod, late on a busy machine) sets Progressing
      // back to ReplicaSetUpdated, as in Kubernetes, until the deadline passes again
      const timedOut = await until('Progressing timed out', async () => {
        const cond = (await deploymentJson()).status.conditions.find((x: any) => x.type === 'Progressing');
        return cond?.reason === 'ProgressDeadlineExceeded' && cond;
      }, 30_000);
      assert.deepEqual([timedOut.status, timedOut.reason], ['False', 'ProgressDeadlineExceeded']);
      assert.match(timedOut.message, /^ReplicaSet "web-[a-z0-9]+" has timed out progressing\.$/);
      // 5 - maxUnavailable (25% of 5, rounded down: 1) old pods stay available; the new
      // ReplicaSet grows to what maxSurge (25% of 5, rounded up: 2) leaves: 7 - 4 = 3 pods that never start
      const stuckStatus = await until('4 old available, 3 new stuck', async () => { const st = (await deploymentJson()).status; return st.replicas === 7 && st.updatedReplicas === 3 && st; });
      assert.equal(stuckStatus.availableReplicas, 4);
      assert.equal(stuckStatus.conditions.find((x: any) => x.type === 'Available').status, 'True');
      // the default deadline again, so that the way back is not held to 2 s between steps
      await k('patch', 'deployment/web', '-p', '{"spec":{"progressDeadlineSeconds":600}}');
      assert.match(await k('rollout', 'undo', 'deployment/web'), /deployment.apps\/web rolled back/);
      await rolloutStatus();

      const described = await k('describe', 'deployment', 'web');
      assert.match(described, /Replicas:\s+5 desired \| 5 updated \| 5 total \| 5 available \| 0 unavailable/);
      assert.match(described, /StrategyType:\s+RollingUpdate/);
      assert.match(described, /RollingUpdateStrategy:\s+25% max unavailable, 25% max surge/);
      assert.match(described, /NewReplicaSet:\s+web-[a-z0-9]+ \(5\/5 replicas created\)/);
      assert.match(described, /Normal\s+ScalingReplicaSet\s+.*deployment-controller\s+Scaled (up|down) replica set web-/);
    })));
  });

  test('kubectl scales ReplicaSets and ReplicationControllers; their pods are adopted and released by label', requires(!kubectls().length && 'kubectl not installed'), async t => {
    const orch = await startOrch();
    t.after(async () => { await orch.stop(); await orch.cleanup(); });
    const pool = await startNodePool({ kubeconfig: orch.kubeconfig, nodes: 1, images });
    t.after(() => pool.stop());
    const { path } = kubectls()[kubectls().length - 1]!;
    const k = async (input: string | undefined, ...args: string[]) => {
      const r = await kubectl(path, orch.kubeconfig, args, input);
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}${r.stdout}`);
      return r.stdout;
    };
    const ready = (kind: string, name: string, n: number) => until(`${kind}/${name} ${n} ready`, async () => {
      const o = JSON.parse(await k(undefined, 'get', kind, name, '-o', 'json'));
      return o.status?.readyReplicas === n && o.status.replicas === n && o.status.observedGeneration === o.metadata.generation;
    }, 60_000);

    await k(`apiVersion: v1
kind: ReplicationController
metadata:
  name: legacy
spec:
  replicas: 2
  template:
    metadata:
      labels: {app: legacy}
    spec:
      containers: [{name: app, image: "registry.local/app:1.0"}]
`, 'apply', '-f', '-');
    await ready('rc', 'legacy', 2);
    assert.match(await k(undefined, 'get', 'rc', 'legacy'), /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nlegacy\s+2\s+2\s+2\s+/);
    assert.match(await k(undefined, 'scale', 'rc', 'legacy', '--replicas=3'), /replicationcontroller\/legacy scaled/);
    await ready('rc', 'legacy', 3);

    await k(`apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: front
spec:
  replicas: 1
  selector: {matchLabels: {app: front}}
  template:
    metadata:
      labels: {app: front}
    spec:
      containers: [{name: app, image: "registry.local/app:1.0"}]
`, 'apply', '-f', '-');
    await ready('rs', 'front', 1);
    assert.match(await k(undefined, 'scale', 'rs', 'front', '--replicas=2'), /replicaset.apps\/front scaled/);
    await ready('rs', 'front', 2);
    // a pod relabelled out of the selector is released and replaced
    const pod = JSON.parse(await k(undefined, 'get', 'pods', '-l', 'app=front', '-o', 'json')).items[0];
    await k(undefined, 'label', 'pod', pod.metadata.name, 'app=debug', '--overwrite');
    await until('released', async () => !JSON.parse(await k(undefined, 'get', 'pod', pod.metadata.name, '-o', 'json')).metadata.ownerReferences?.length);
    await ready('rs', 'front', 2);
    // and adopted again when it matches once more; one too many, so one goes
    await k(undefined, 'label', 'pod', pod.metadata.name, 'app=front', '--overwrite');
    await until('adopted, back to 2', async () => {
      const pods = JSON.parse(await k(undefined, 'get', 'pods', '-l', 'app=front', '-o', 'json')).items.filter((p: any) => !p.metadata.deletionTimestamp);
      return pods.length === 2 && pods.every((p: any) => p.metadata.ownerReferences?.[0]?.name === 'front');
    });
    const rsEvents = JSON.parse(await k(undefined, 'get', 'events', '--field-selector', 'involvedObject.name=front', '-o', 'json')).items.map((e: any) => e.reason);
    assert.equal(rsEvents.filter((r: string) => r === 'SuccessfulDelete').length, 1, 'exactly one pod deleted after the adoption');
  });
});
