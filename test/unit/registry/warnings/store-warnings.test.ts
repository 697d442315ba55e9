// The strategies' warnings through the generic store (src/registry/store.ts): said once the
// object passed validation (dry runs included), none for a write validation refuses; a pod's on
// create only, a workload's template again only on an update that moved its generation; the
// AppArmor annotation a pod's create carries into its field told as kube-apiserver tells it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/api/object.ts';
import type { WriteOptions } from '../../../../src/registry/registry.ts';
import { testRegistry, type TestRegistry } from '../../support/registry.ts';

let reg: TestRegistry;
before(async () => { reg = await testRegistry(); });
after(() => reg.close());

function collecting(extra: WriteOptions = {}): { opts: WriteOptions; said: string[] } {
  const said: string[] = [];
  return { said, opts: { ...extra, warn: t => said.push(t) } };
}

const spec = (extra: Record<string, unknown> = {}) => ({
  nodeSelector: { 'beta.kubernetes.io/arch': 'amd64' },
  containers: [{ name: 'app', image: 'busybox', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] }],
  ...extra,
});
const arch = 'deprecated since v1.14; use "kubernetes.io/arch" instead';
const envA = (path: string) => `${path}.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply`;

test('a pod: warned on create, dry run included, never on update', async () => {
  const pods = reg.info('', 'pods');
  const expected = [
    "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]",
    `spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`,
    envA('spec'),
  ];
  const dry = collecting({ dryRun: true });
  await reg.store.create(pods, 'default', { metadata: { name: 'p.one' }, spec: spec() } as KubeObject, dry.opts);
  assert.deepEqual(dry.said, expected);
  const real = collecting();
  const made = await reg.store.create(pods, 'default', { metadata: { name: 'p.one' }, spec: spec() } as KubeObject, real.opts);
  assert.deepEqual(real.said, expected);
  const upd = collecting();
  await reg.store.update(pods, 'default', 'p.one', { ...made, metadata: { ...made.metadata, labels: { a: 'b' } } }, upd.opts);
  assert.deepEqual(upd.said, []);
});

test('a write validation refuses says nothing', async () => {
  const w = collecting();
  await assert.rejects(reg.store.create(reg.info('', 'pods'), 'default', { metadata: { name: 'bad' }, spec: spec({ containers: [{ name: 'app' }] }) } as KubeObject, w.opts), { reason: 'Invalid' });
  assert.deepEqual(w.said, []);
});

test('a pod AppArmor annotation carried into the field is told deprecated; one equal to the pod profile is not', async () => {
  const w = collecting();
  const made = await reg.store.create(reg.info('', 'pods'), 'default', { metadata: { name: 'aa', annotations: {
    'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default',
    'container.apparmor.security.beta.kubernetes.io/same': 'unconfined',
    'container.apparmor.security.beta.kubernetes.io/bad': 'nonsense',
  } }, spec: { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: ['app', 'same', 'bad'].map(name => ({ name, image: 'busybox' })) } } as KubeObject, w.opts);
  assert.deepEqual(w.said, [
    'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead',
    'metadata.annotations[container.apparmor.security.beta.kubernetes.io/bad]: deprecated since v1.30; use the "appArmorProfile" field instead',
  ]);
  assert.deepEqual((made.spec as { containers: Array<{ securityContext?: unknown }> }).containers[0]!.securityContext, { appArmorProfile: { type: 'RuntimeDefault' } });
});

const deployment = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: spec(extra) } },
}) as unknown as KubeObject;

test('a Deployment: its template on create, and on an update only when the generation moves', async () => {
  const info = reg.info('apps', 'deployments');
  const c = collecting();
  const made = await reg.store.create(info, 'default', deployment('web'), c.opts);
  assert.deepEqual(c.said, [`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`, envA('spec.template.spec')]);

  const labels = collecting();
  const relabelled = await reg.store.update(info, 'default', 'web', { ...made, metadata: { ...made.metadata, labels: { a: 'b' } } }, labels.opts);
  assert.deepEqual(labels.said, []);

  const scaled = collecting();
  const obj = relabelled.object as KubeObject & { spec: { replicas: number } };
  await reg.store.update(info, 'default', 'web', { ...obj, spec: { ...obj.spec, replicas: 3 } }, scaled.opts);
  assert.deepEqual(scaled.said, [`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`, envA('spec.template.spec')]);
});

test('a CronJob: under spec.jobTemplate.spec.template, with the name warning', async () => {
  const c = collecting();
  await reg.store.create(reg.info('batch', 'cronjobs'), 'default', { metadata: { name: 'nightly.job' }, spec: { schedule: '0 0 * * *', jobTemplate: { spec: { template: { spec: spec({ restartPolicy: 'Never' }) } } } } } as unknown as KubeObject, c.opts);
  assert.deepEqual(c.said, [
    "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]",
    `spec.jobTemplate.spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`,
    envA('spec.jobTemplate.spec.template.spec'),
  ]);
});

test('a PodTemplate: under template, again only when the template changes', async () => {
  const info = reg.info('', 'podtemplates');
  const c = collecting();
  const made = await reg.store.create(info, 'default', { metadata: { name: 'tpl' }, template: { spec: spec() } } as unknown as KubeObject, c.opts);
  assert.deepEqual(c.said, [`template.spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`, envA('template.spec')]);
  const same = collecting();
  await reg.store.update(info, 'default', 'tpl', { ...made, metadata: { ...made.metadata, labels: { a: 'b' } } }, same.opts);
  assert.deepEqual(same.said, []);
});

test('a StatefulSet: no name warning; a ReplicationController warns of its stored template on update', async () => {
  const sts = collecting();
  await reg.store.create(reg.info('apps', 'statefulsets'), 'default', { ...deployment('db.x'), spec: { ...(deployment('db.x').spec as object), serviceName: 'db' } } as KubeObject, sts.opts);
  assert.deepEqual(sts.said, [`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`, envA('spec.template.spec')]);

  const rcs = reg.info('', 'replicationcontrollers');
  const rc = { metadata: { name: 'rc' }, spec: { selector: { app: 'x' }, template: { metadata: { labels: { app: 'x' } }, spec: spec() } } } as unknown as KubeObject;
  const made = await reg.store.create(rcs, 'default', rc, {});
  const fixed = collecting();
  const body = made as KubeObject & { spec: { template: { spec: Record<string, unknown> } } };
  await reg.store.update(rcs, 'default', 'rc', { ...body, spec: { ...body.spec, template: { ...body.spec.template, spec: { ...body.spec.template.spec, nodeSelector: {} } } } } as KubeObject, fixed.opts);
  assert.deepEqual(fixed.said, [`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`, envA('spec.template.spec')]);
});

test('a DaemonSet: again only when its template changes, a label on the set is not', async () => {
  const info = reg.info('apps', 'daemonsets');
  const made = await reg.store.create(info, 'default', deployment('agents.x'), {}) as KubeObject & { spec: { template: { spec: Record<string, unknown> } } };
  const relabel = collecting();
  const relabelled = (await reg.store.update(info, 'default', 'agents.x', { ...made, metadata: { ...made.metadata, labels: { a: 'b' } } }, relabel.opts)).object as typeof made;
  assert.deepEqual(relabel.said, []);
  const changed = collecting();
  await reg.store.update(info, 'default', 'agents.x', { ...relabelled, spec: { ...relabelled.spec, template: { ...relabelled.spec.template, spec: { ...relabelled.spec.template.spec, terminationGracePeriodSeconds: -1 } } } } as KubeObject, changed.opts);
  assert.deepEqual(changed.said, [
    `spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: ${arch}`,
    envA('spec.template.spec'),
    'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
  ]);
});

test('a negative grace period: a pod gets 1 and no warning, a template keeps it and is warned', async () => {
  const w = collecting();
  const made = await reg.store.create(reg.info('', 'pods'), 'default', { metadata: { name: 'grace' }, spec: { terminationGracePeriodSeconds: -3, containers: [{ name: 'app', image: 'busybox' }] } } as KubeObject, w.opts);
  assert.equal((made.spec as { terminationGracePeriodSeconds: number }).terminationGracePeriodSeconds, 1);
  assert.deepEqual(w.said, []);
  const d = collecting();
  await reg.store.create(reg.info('apps', 'replicasets'), 'default', { metadata: { name: 'rs' }, spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { terminationGracePeriodSeconds: -3, containers: [{ name: 'app', image: 'busybox' }] } } } } as unknown as KubeObject, d.opts);
  assert.deepEqual(d.said, ['spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1']);
});

test('a StatefulSet: its claim templates (".Spec" on update, as kube-apiserver names them) on every write', async () => {
  const info = reg.info('apps', 'statefulsets');
  const body = { metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app', image: 'busybox' }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5' } } } }] } } as unknown as KubeObject;
  const c = collecting();
  const made = await reg.store.create(info, 'default', body, c.opts);
  assert.deepEqual(c.said, ['spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "500m" is invalid, must be an integer']);
  const u = collecting();
  await reg.store.update(info, 'default', 'db', { ...made, metadata: { ...made.metadata, labels: { a: 'b' } } }, u.opts);
  assert.deepEqual(u.said, ['spec.volumeClaimTemplates[0].Spec.resources.requests[storage]: fractional byte value "500m" is invalid, must be an integer']);
});
