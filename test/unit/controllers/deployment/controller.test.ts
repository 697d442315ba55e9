import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../../../src/api/log.ts';
import { startDeploymentController } from '../../../../src/controllers/deployment/controller.ts';
import { computeTemplateHash } from '../../../../src/controllers/deployment/template-hash.ts';
import { ApiError } from '../../../../src/client/api-error.ts';
import { createInformer } from '../../../../src/client/informer.ts';
import { startReplicaController } from '../../../../src/controllers/replicaset/controller.ts';
import { replicaSetKind } from '../../../../src/controllers/replicaset/kinds.ts';
import { autoReady, eventually, startInProcessApi } from '../in-process-api.ts';

const ns = 'default';
const dPath = `/apis/apps/v1/namespaces/${ns}/deployments`;
const rsPath = `/apis/apps/v1/namespaces/${ns}/replicasets`;
const podsPath = `/api/v1/namespaces/${ns}/pods`;

function deployment(name: string, image: string, extra: Record<string, unknown> = {}) {
  return { metadata: { name }, spec: { replicas: 3, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } }, ...extra } };
}

async function cluster(t: import('node:test').TestContext) {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const rs = startReplicaController(api.client, silentLogger, { kind: replicaSetKind });
  const dc = startDeploymentController(api.client, silentLogger);
  const nodes = autoReady(api.client);
  t.after(() => { nodes.stop(); dc.stop(); rs.stop(); });
  return api.client;
}

const complete = (d: any) => d.status?.observedGeneration >= d.metadata.generation && d.status.updatedReplicas === d.spec.replicas
  && d.status.replicas === d.spec.replicas && d.status.availableReplicas === d.spec.replicas && d.status.conditions?.some((c: any) => c.type === 'Progressing' && c.reason === 'NewReplicaSetAvailable');

test('a Deployment rolls out, rolls to a new template and back, with revisions, conditions and events', async t => {
  const client = await cluster(t);
  await client.create(dPath, deployment('web', 'registry.local/app:1.0'));
  const d1 = await eventually(async () => { const d = await client.get(`${dPath}/web`); return complete(d) && d; }, 'first rollout');
  assert.equal(d1.metadata.annotations['deployment.kubernetes.io/revision'], '1');
  const byType = Object.fromEntries(d1.status.conditions.map((c: any) => [c.type, c]));
  assert.equal(byType.Available.reason, 'MinimumReplicasAvailable');
  assert.equal(byType.Available.message, 'Deployment has minimum availability.');
  const rss1 = (await client.list(rsPath)).items;
  assert.equal(rss1.length, 1);
  const rs1 = rss1[0];
  const hash = rs1.metadata.labels['pod-template-hash'];
  assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  assert.equal(rs1.metadata.name, `web-${hash}`);
  assert.equal(byType.Progressing.message, `ReplicaSet "web-${hash}" has successfully progressed.`);
  assert.deepEqual(rs1.spec.selector.matchLabels, { app: 'web', 'pod-template-hash': hash });
  assert.equal(rs1.metadata.annotations['deployment.kubernetes.io/revision'], '1');
  assert.equal(rs1.metadata.annotations['deployment.kubernetes.io/desired-replicas'], '3');
  assert.equal(rs1.metadata.annotations['deployment.kubernetes.io/max-replicas'], '4', '3 + 25% rounded up');
  assert.equal(rs1.metadata.ownerReferences[0].kind, 'Deployment');
  const pods1 = (await client.list(podsPath)).items;
  assert.ok(pods1.every((p: any) => p.metadata.name.startsWith(`web-${hash}-`) && p.metadata.labels['pod-template-hash'] === hash));

  // a new image: a second ReplicaSet takes over within maxSurge 1 / maxUnavailable 0; every
  // ReplicaSet write is seen in order, so the largest total of replicas asked for is exact
  const sizes = new Map<string, number>();
  let most = 0;
  const watchRS = createInformer(client, rsPath).on('add', (r: any) => { sizes.set(r.metadata.uid, r.spec.replicas); most = Math.max(most, [...sizes.values()].reduce((a, b) => a + b, 0)); })
    .on('update', (_o: any, r: any) => { sizes.set(r.metadata.uid, r.spec.replicas); most = Math.max(most, [...sizes.values()].reduce((a, b) => a + b, 0)); });
  watchRS.start();
  t.after(() => watchRS.stop());
  await watchRS.synced();
  await client.patch(`${dPath}/web`, { spec: { template: { spec: { containers: [{ name: 'app', image: 'registry.local/app:2.0' }] } } } }, 'application/strategic-merge-patch+json');
  const d2 = await eventually(async () => { const d = await client.get(`${dPath}/web`); return d.metadata.generation === 2 && complete(d) && d; }, 'second rollout');
  assert.equal(d2.metadata.annotations['deployment.kubernetes.io/revision'], '2');
  const rss2 = (await client.list(rsPath)).items;
  assert.equal(rss2.length, 2);
  const old = rss2.find((r: any) => r.metadata.uid === rs1.metadata.uid);
  const cur = rss2.find((r: any) => r.metadata.uid !== rs1.metadata.uid);
  assert.equal(old.spec.replicas, 0);
  assert.equal(cur.spec.replicas, 3);
  assert.equal(most, 4, 'never more than replicas + maxSurge asked for');
  assert.ok(old.metadata.managedFields?.some((f: any) => f.operation === 'Update' && f.fieldsV1?.['f:spec']?.['f:replicas']), 'writes from informer copies (without field history) keep the server\'s');
  assert.equal(cur.metadata.annotations['deployment.kubernetes.io/revision'], '2');
  await eventually(async () => (await client.list(podsPath)).items.filter((p: any) => !p.metadata.deletionTimestamp).every((p: any) => p.metadata.labels['pod-template-hash'] === cur.metadata.labels['pod-template-hash']), 'old pods gone');
  const scaling = (await client.list(`/api/v1/namespaces/${ns}/events`)).items.filter((e: any) => e.reason === 'ScalingReplicaSet').map((e: any) => e.message);
  assert.ok(scaling.includes(`Scaled up replica set web-${hash} from 0 to 3`), scaling.join('\n'));
  assert.ok(scaling.includes(`Scaled up replica set ${cur.metadata.name} from 0 to 1`), scaling.join('\n'));
  assert.ok(scaling.includes(`Scaled down replica set web-${hash} from 1 to 0`), scaling.join('\n'));

  // rollback as kubectl does it: the old template back; the old ReplicaSet becomes revision 3
  await client.patch(`${dPath}/web`, [{ op: 'replace', path: '/spec/template', value: { ...old.spec.template, metadata: { labels: { app: 'web' } } } }], 'application/json-patch+json');
  await eventually(async () => { const d = await client.get(`${dPath}/web`); return d.metadata.generation === 3 && complete(d) && d; }, 'rollback');
  const back = await client.get(`${rsPath}/${old.metadata.name}`);
  assert.equal(back.spec.replicas, 3);
  assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision'], '3');
  assert.equal(back.metadata.annotations['deployment.kubernetes.io/revision-history'], '1');
  assert.equal((await client.get(`${dPath}/web`)).metadata.annotations['deployment.kubernetes.io/revision'], '3');
});

test('a paused Deployment only resizes, and rolls out once resumed; history is trimmed to revisionHistoryLimit', async t => {
  const client = await cluster(t);
  await client.create(dPath, deployment('api', 'registry.local/app:1.0', { replicas: 2, revisionHistoryLimit: 1 }));
  await eventually(async () => complete(await client.get(`${dPath}/api`)), 'rollout');
  await client.patch(`${dPath}/api`, { spec: { paused: true } });
  const paused = await eventually(async () => { const d = await client.get(`${dPath}/api`); const c = d.status.conditions?.find((x: any) => x.type === 'Progressing'); return c?.reason === 'DeploymentPaused' && c; }, 'paused condition');
  assert.equal(paused.status, 'Unknown');
  assert.equal(paused.message, 'Deployment is paused');
  await client.patch(`${dPath}/api`, { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' } } } } });
  await client.patch(`${dPath}/api/scale`, { spec: { replicas: 4 } });
  await eventually(async () => { const d = await client.get(`${dPath}/api`); return d.status.observedGeneration === d.metadata.generation && d.status.replicas === 4 && d.status.availableReplicas === 4; }, 'paused resize');
  assert.equal((await client.list(rsPath)).items.length, 1, 'no rollout while paused');
  await client.patch(`${dPath}/api`, { spec: { paused: false } });
  await eventually(async () => { const d = await client.get(`${dPath}/api`); return complete(d) && (await client.list(rsPath)).items.length === 2; }, 'rolled out after resume');
  const rss = (await client.list(rsPath)).items;
  assert.ok(rss.every((r: any) => r.spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt'] || r.spec.replicas === 0));

  // a third template: the oldest empty ReplicaSet goes beyond revisionHistoryLimit 1
  await client.patch(`${dPath}/api`, { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-01-02T00:00:00Z' } } } } });
  await eventually(async () => { const d = await client.get(`${dPath}/api`); return d.metadata.annotations['deployment.kubernetes.io/revision'] === '3' && complete(d) && (await client.list(rsPath)).items.length === 2; }, 'history trimmed to 1 old ReplicaSet');
  const revisions = (await client.list(rsPath)).items.map((r: any) => r.metadata.annotations['deployment.kubernetes.io/revision']).sort();
  assert.deepEqual(revisions, ['2', '3']);
});

test('Recreate takes the old pods down before the new ReplicaSet grows', async t => {
  const client = await cluster(t);
  await client.create(dPath, deployment('batch', 'registry.local/app:1.0', { replicas: 2, strategy: { type: 'Recreate' } }));
  await eventually(async () => complete(await client.get(`${dPath}/batch`)), 'rollout');
  const first = (await client.list(rsPath)).items[0];
  await client.patch(`${dPath}/batch`, { spec: { template: { spec: { containers: [{ name: 'app', image: 'registry.local/app:2.0' }] } } } }, 'application/strategic-merge-patch+json');
  await eventually(async () => { const d = await client.get(`${dPath}/batch`); return d.metadata.generation === 2 && complete(d); }, 'recreate');
  const events = (await client.list(`/api/v1/namespaces/${ns}/events`)).items.filter((e: any) => e.reason === 'ScalingReplicaSet').map((e: any) => e.message);
  const down = events.indexOf(`Scaled down replica set ${first.metadata.name} from 2 to 0`);
  const up = events.findIndex((m: string) => m.startsWith('Scaled up replica set') && !m.includes(first.metadata.name));
  assert.ok(down >= 0 && up > down, events.join('\n'));
});

test('a rollout that makes no progress runs out of its deadline', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const client = api.client;
  const rs = startReplicaController(client, silentLogger, { kind: replicaSetKind });
  const dc = startDeploymentController(client, silentLogger);
  t.after(() => { dc.stop(); rs.stop(); });
  // no node: pods never turn ready
  await client.create(dPath, deployment('stuck', 'registry.local/app:1.0', { replicas: 1, progressDeadlineSeconds: 1 }));
  const c = await eventually(async () => { const d = await client.get(`${dPath}/stuck`); return d.status.conditions?.find((x: any) => x.type === 'Progressing' && x.reason === 'ProgressDeadlineExceeded'); }, 'deadline exceeded', 15_000);
  assert.equal(c.status, 'False');
  assert.match(c.message, /^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/);
  const d = await client.get(`${dPath}/stuck`);
  const available = d.status.conditions.find((x: any) => x.type === 'Available');
  assert.deepEqual([available.status, available.reason, available.message], ['False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.']);
});

test('pods that cannot be created: FailedCreate events, ReplicaFailure on the ReplicaSet and on the Deployment, cleared once they can', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  let refuse = true;
  const quota = 'pods "web-x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0';
  // the API as the ReplicaSet controller sees it: pod creates refused as a ResourceQuota refuses them
  const client = {
    ...api.client,
    create: (path: string, body: unknown, q?: any) => (refuse && path.endsWith('/pods')
      ? Promise.reject(new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 403, reason: 'Forbidden', message: quota }))
      : api.client.create(path, body, q)),
  };
  const rs = startReplicaController(client, silentLogger, { kind: replicaSetKind });
  const dc = startDeploymentController(api.client, silentLogger);
  t.after(() => { dc.stop(); rs.stop(); });
  await api.client.create(dPath, deployment('web', 'registry.local/app:1.0', { replicas: 2 }));
  const rsFailure = await eventually(async () => { const l = (await api.client.list(rsPath)).items; return l[0]?.status?.conditions?.find((c: any) => c.type === 'ReplicaFailure'); }, 'ReplicaFailure on the ReplicaSet');
  assert.deepEqual([rsFailure.status, rsFailure.reason, rsFailure.message], ['True', 'FailedCreate', quota]);
  const dFailure = await eventually(async () => (await api.client.get(`${dPath}/web`)).status?.conditions?.find((c: any) => c.type === 'ReplicaFailure'), 'ReplicaFailure on the Deployment');
  assert.deepEqual([dFailure.status, dFailure.reason, dFailure.message], ['True', 'FailedCreate', quota]);
  const ev = await eventually(async () => (await api.client.list(`/api/v1/namespaces/${ns}/events`)).items.find((e: any) => e.reason === 'FailedCreate'), 'FailedCreate event');
  assert.equal(ev.type, 'Warning');
  assert.equal(ev.message, `Error creating: ${quota}`);

  refuse = false;
  await eventually(async () => { const d = await api.client.get(`${dPath}/web`); return d.status?.replicas === 2 && !d.status.conditions?.some((c: any) => c.type === 'ReplicaFailure'); }, 'recovered', 15_000);
  assert.ok(!(await api.client.list(rsPath)).items[0].status.conditions?.length);
});

test('a name taken by a ReplicaSet of another template is a hash collision: collisionCount moves and the next hash is used', async t => {
  const api = await startInProcessApi();
  t.after(() => api.close());
  const client = api.client;
  // the Deployment is created paused so that its ReplicaSet's name can be taken first
  const d = await client.create(dPath, deployment('web', 'registry.local/app:1.0', { replicas: 1, paused: true }));
  const taken = `web-${computeTemplateHash(d.spec.template)}`;
  await client.create(rsPath, { metadata: { name: taken, labels: { app: 'other' } }, spec: { replicas: 0, selector: { matchLabels: { app: 'other' } }, template: { metadata: { labels: { app: 'other' } }, spec: { containers: [{ name: 'x', image: 'other' }] } } } });
  const dc = startDeploymentController(client, silentLogger);
  t.after(() => dc.stop());
  await client.patch(`${dPath}/web`, { spec: { paused: false } });
  const made = await eventually(async () => (await client.list(rsPath)).items.find((r: any) => r.metadata.name !== taken), 'a ReplicaSet under the next hash');
  assert.equal(made.metadata.name, `web-${computeTemplateHash(d.spec.template, 1)}`);
  assert.equal((await client.get(`${dPath}/web`)).status.collisionCount, 1);
  assert.equal((await client.get(`${rsPath}/${taken}`)).metadata.ownerReferences, undefined, 'the other ReplicaSet is left alone');
});
