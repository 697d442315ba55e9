// What the agent derives from a pod before it asks the runtime: the environment (with
// references and values from the pod, ConfigMaps and Secrets), static pods from manifests, and
// the CRI configuration.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerEnv, expandReferences } from '../../../../src/agent/pods/env.ts';
import { containerConfig, linuxResources, sandboxConfig } from '../../../../src/agent/pods/cri-config.ts';
import { ContainerStartError } from '../../../../src/agent/pods/config-errors.ts';
import type { DataObject, ObjectSource } from '../../../../src/agent/pods/object-source.ts';
import { mirrorPod, readStaticPods } from '../../../../src/agent/pods/static-pods.ts';
import { prepareVolumes } from '../../../../src/agent/pods/volumes.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';

const objects: ObjectSource = {
  async get(kind, _ns, name): Promise<DataObject | undefined> {
    if (kind === 'configmaps' && name === 'cfg') return { data: { color: 'blue', size: 'L' } };
    if (kind === 'secrets' && name === 'sec') return { data: { token: Buffer.from('s3cret').toString('base64') } };
    return undefined;
  },
  claim: async () => undefined,
  volume: async () => undefined,
};
const pod = (c: Record<string, unknown>, spec: Record<string, unknown> = {}): Pod => ({
  metadata: { name: 'web', namespace: 'shop', uid: 'u-1', labels: { app: 'web' } },
  spec: { nodeName: 'n1', containers: [{ name: 'main', image: 'img:1', ...c }], ...spec },
});

test('$(VAR) references expand when defined, stay when not, $$ escapes', () => {
  const vars = new Map([['A', 'x']]);
  assert.equal(expandReferences('$(A)-$(B)-$$(A)-$A-$', vars), 'x-$(B)-$(A)-$A-$');
});

test('the environment: envFrom first, then env in order, with pod fields, ConfigMap and Secret keys', async () => {
  const p = pod({
    envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }],
    env: [
      { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
      { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'sec', key: 'token' } } },
      { name: 'GREETING', value: 'hi $(POD) in $(CFG_color)' },
      { name: 'MAYBE', valueFrom: { configMapKeyRef: { name: 'missing', key: 'x', optional: true } } },
    ],
  });
  const env = await containerEnv(p, p.spec.containers[0]!, objects, { podIPs: ['10.0.0.9'], hostIPs: ['192.168.0.1'] });
  assert.deepEqual(env, [
    { key: 'CFG_color', value: 'blue' }, { key: 'CFG_size', value: 'L' }, { key: 'POD', value: 'web' }, { key: 'APP', value: 'web' },
    { key: 'IP', value: '10.0.0.9' }, { key: 'TOKEN', value: 's3cret' }, { key: 'GREETING', value: 'hi web in blue' },
  ]);
});

test('a missing ConfigMap or key is a CreateContainerConfigError worded as Kubernetes words it', async () => {
  const missing = pod({ env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'nope', key: 'k' } } }] });
  await assert.rejects(containerEnv(missing, missing.spec.containers[0]!, objects, { podIPs: [], hostIPs: [] }), (e: unknown) => e instanceof ContainerStartError && e.reason === 'CreateContainerConfigError' && e.message === 'configmap "nope" not found');
  const noKey = pod({ env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }] });
  await assert.rejects(containerEnv(noKey, noKey.spec.containers[0]!, objects, { podIPs: [], hostIPs: [] }), /couldn't find key k in ConfigMap shop\/cfg/);
});

test('volumes: emptyDir and ConfigMap files on the host; an unsupported type is refused', async () => {
  const root = await mkdtemp(join(tmpdir(), 'orch-vol-'));
  try {
    const p = pod({}, { volumes: [{ name: 'scratch', emptyDir: {} }, { name: 'conf', configMap: { name: 'cfg', items: [{ key: 'color', path: 'sub/c.txt' }] } }] });
    const v = await prepareVolumes(p, root, objects);
    assert.equal(v.get('scratch')!.hostPath, join(root, 'pods/u-1/volumes/kubernetes.io~empty-dir/scratch'));
    assert.equal(await readFile(join(v.get('conf')!.hostPath, 'sub/c.txt'), 'utf8'), 'blue');
    assert.equal(v.get('conf')!.readOnly, true);
    await assert.rejects(prepareVolumes(pod({}, { volumes: [{ name: 'x', nfs: { server: 's', path: '/' } }] }), root, objects), /volume "x" has a type \(nfs\)/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('CRI configs: labels tie runtime objects to the pod, resources become cgroup values', () => {
  const p = pod({ command: ['sh', '-c', 'echo $(GREETING)'], ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }], resources: { requests: { cpu: '250m' }, limits: { cpu: '500m', memory: '64Mi' } } });
  const sb = sandboxConfig(p, 2, { podLogsDir: '/var/log/pods', nodeName: 'n1', clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local' });
  assert.deepEqual(sb.metadata, { name: 'web', namespace: 'shop', uid: 'u-1', attempt: 2 });
  assert.equal(sb.logDirectory, '/var/log/pods/shop_web_u-1');
  assert.equal(sb.labels!['io.kubernetes.pod.uid'], 'u-1');
  assert.deepEqual(sb.portMappings, [{ protocol: 'TCP', containerPort: 80, hostPort: 8080, hostIp: '' }]);
  assert.deepEqual(sb.dnsConfig, { servers: ['10.96.0.10'], searches: ['shop.svc.cluster.local', 'svc.cluster.local', 'cluster.local'], options: ['ndots:5'] });
  // dnsPolicy None: the pod's own settings, in the runtime's shape (options as name:value)
  const own = pod({});
  own.spec.dnsPolicy = 'None';
  own.spec.dnsConfig = { nameservers: ['1.1.1.1'], searches: ['example.com'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] };
  assert.deepEqual(sandboxConfig(own, 1, { podLogsDir: '/l', nodeName: 'n1', clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local' }).dnsConfig,
    { servers: ['1.1.1.1'], searches: ['example.com'], options: ['ndots:2', 'edns0'] });
  assert.deepEqual(linuxResources(p.spec.containers[0]!), { cpuShares: 256, cpuPeriod: 100_000, cpuQuota: 50_000, memoryLimitInBytes: 64 * 1024 * 1024 });
  const cc = containerConfig({ pod: p, container: p.spec.containers[0]!, restartCount: 3, envs: [{ key: 'GREETING', value: 'hello' }], mounts: [] });
  assert.deepEqual(cc.args, []);
  assert.deepEqual(cc.command, ['sh', '-c', 'echo hello']);
  assert.deepEqual(cc.envs, [{ key: 'GREETING', value: Buffer.from('hello') }]);
  assert.equal(cc.logPath, 'main/3.log');
  assert.deepEqual(cc.metadata, { name: 'main', attempt: 3 });
  assert.equal(cc.annotations!['io.kubernetes.container.restartCount'], '3');
  assert.equal(cc.labels!['io.kubernetes.container.name'], 'main');
});

test('static pods: named after the node, defaulted, hashed; the mirror carries the hash and the node as owner', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-static-'));
  try {
    await writeFile(join(dir, 'a.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: etcd\n  namespace: kube-system\nspec:\n  containers:\n  - name: etcd\n    image: etcd:3.5\n');
    await writeFile(join(dir, 'broken.yaml'), 'kind: Deployment\n');
    await writeFile(join(dir, '.hidden.yaml'), 'kind: Pod\n');
    const errors: string[] = [];
    const [p, ...rest] = await readStaticPods(dir, 'Node-1', Date.parse('2026-11-23T10:00:00Z'), f => errors.push(f));
    assert.equal(rest.length, 0);
    assert.deepEqual(errors, [join(dir, 'broken.yaml')]);
    assert.equal(p!.metadata.name, 'etcd-node-1');
    assert.equal(p!.metadata.namespace, 'kube-system');
    assert.match(p!.metadata.uid, /^[0-9a-f]{32}$/);
    assert.equal(p!.metadata.annotations!['kubernetes.io/config.hash'], p!.metadata.uid);
    assert.equal(p!.metadata.annotations!['kubernetes.io/config.source'], 'file');
    assert.equal(p!.spec.nodeName, 'Node-1');
    assert.equal(p!.spec.containers[0]!.imagePullPolicy, 'IfNotPresent');
    const m = mirrorPod(p!, { name: 'Node-1', uid: 'node-uid' });
    assert.equal(m.metadata!.uid, undefined);
    assert.equal(m.metadata!.annotations!['kubernetes.io/config.mirror'], p!.metadata!.uid);
    assert.deepEqual(m.metadata!.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'Node-1', uid: 'node-uid', controller: true }]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
