// ConfigMap, Secret, downward API and projected volumes: their files (every key or the items
// asked for, binary data, decoded secrets), modes (defaultMode, per-item mode), optional sources,
// the kubelet's messages for missing objects and keys, updates through the same mount point, and
// one failing volume not holding back the others' updates.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, readFile, readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareVolumes } from '../../../../../src/agent/pods/volumes.ts';
import { failedMount, objectSource, pod, withRoot } from './support.ts';

const mode = async (p: string) => (await stat(p)).mode & 0o777;

test('configMap: every key (binaryData too) with defaultMode 0644, as links through ..data into one version', async () => withRoot(async root => {
  const v = (await prepareVolumes(pod([{ name: 'c', configMap: { name: 'cfg' } }]), root, objectSource())).get('c')!;
  assert.deepEqual(v, { hostPath: join(root, 'pods/u-2/volumes/kubernetes.io~configmap/c'), readOnly: true });
  assert.equal(await readFile(join(v.hostPath, 'color'), 'utf8'), 'blue');
  assert.deepEqual([...await readFile(join(v.hostPath, 'blob'))], [0, 1, 2]);
  assert.equal(await mode(join(v.hostPath, 'size')), 0o644);
  assert.equal(await readlink(join(v.hostPath, 'color')), '..data/color');
  assert.ok((await lstat(join(v.hostPath, '..data'))).isSymbolicLink());
  assert.deepEqual((await readdir(v.hostPath)).filter(n => !n.startsWith('..')).sort(), ['blob', 'color', 'size']);
}));

test('configMap and secret items: chosen keys at their paths, item mode over defaultMode, secrets decoded', async () => withRoot(async root => {
  const vols = await prepareVolumes(pod([
    { name: 'c', configMap: { name: 'cfg', defaultMode: 0o400, items: [{ key: 'color', path: 'deep/colour' }, { key: 'size', path: 'size', mode: 0o640 }] } },
    { name: 's', secret: { secretName: 'sec', defaultMode: 0o600 } },
  ]), root, objectSource());
  const c = vols.get('c')!.hostPath, s = vols.get('s')!.hostPath;
  assert.equal(await readFile(join(c, 'deep/colour'), 'utf8'), 'blue');
  assert.deepEqual([await mode(join(c, 'deep/colour')), await mode(join(c, 'size'))], [0o400, 0o640]);
  assert.deepEqual((await readdir(c)).filter(n => !n.startsWith('..')).sort(), ['deep', 'size']);
  assert.equal(s, join(root, 'pods/u-2/volumes/kubernetes.io~secret/s'));
  assert.equal(await readFile(join(s, 'token'), 'utf8'), 's3cret');
  assert.equal(await mode(join(s, 'token')), 0o600);
}));

test('missing objects and keys: FailedMount in the kubelet\'s words unless optional; an optional one shows what there is', async () => withRoot(async root => {
  const objects = objectSource();
  const fail = (volume: unknown, why: string) => assert.rejects(prepareVolumes(pod([volume]), root, objects), failedMount([`MountVolume.SetUp failed for volume "v" : ${why}`]));
  await fail({ name: 'v', configMap: { name: 'nope' } }, 'configmap "nope" not found');
  await fail({ name: 'v', secret: { secretName: 'nope' } }, 'secret "nope" not found');
  await fail({ name: 'v', configMap: { name: 'cfg', items: [{ key: 'nokey', path: 'x' }] } }, 'configmap references non-existent config key: nokey');
  await fail({ name: 'v', secret: { secretName: 'sec', items: [{ key: 'nokey', path: 'x' }] } }, 'references non-existent secret key: nokey');
  const opt = await prepareVolumes(pod([
    { name: 'c', configMap: { name: 'cfg', optional: true, items: [{ key: 'nokey', path: 'x' }, { key: 'size', path: 's' }] } },
    { name: 'gone', secret: { secretName: 'nope', optional: true } },
  ]), root, objects);
  assert.equal(await readFile(join(opt.get('c')!.hostPath, 's'), 'utf8'), 'L');
  assert.deepEqual((await readdir(opt.get('gone')!.hostPath)).filter(n => !n.startsWith('..')), []);
}));

test('updates: a changed ConfigMap is written through the same directory; once deleted its last files stay, told as FailedMount, while the other volumes still update', async () => withRoot(async root => {
  const objects = objectSource();
  const p = pod([{ name: 'c', configMap: { name: 'cfg' } }, { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }]);
  const dir = (await prepareVolumes(p, root, objects)).get('c')!.hostPath;
  const before = await readlink(join(dir, '..data'));
  objects.store['configmaps/cfg'] = { data: { color: 'red' } };
  assert.equal((await prepareVolumes(p, root, objects)).get('c')!.hostPath, dir);
  assert.equal(await readFile(join(dir, 'color'), 'utf8'), 'red');
  assert.notEqual(await readlink(join(dir, '..data')), before);
  assert.deepEqual((await readdir(dir)).filter(n => !n.startsWith('..')), ['color'], 'keys gone from the ConfigMap are gone from the volume');
  // the same contents again write nothing
  const now = await readlink(join(dir, '..data'));
  await prepareVolumes(p, root, objects);
  assert.equal(await readlink(join(dir, '..data')), now);

  // deleted once the volume was set up: told, but the pod keeps the last files and is not held back
  delete objects.store['configmaps/cfg'];
  const relabelled = pod([{ name: 'c', configMap: { name: 'cfg' } }, { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }], { labels: { app: 'v2' } });
  const told: string[] = [];
  const kept = await prepareVolumes(relabelled, root, objects, undefined, m => told.push(m));
  assert.deepEqual(told, ['MountVolume.SetUp failed for volume "c" : configmap "cfg" not found']);
  assert.deepEqual(kept.get('c'), { hostPath: dir, readOnly: true });
  assert.equal(await readFile(join(root, 'pods/u-2/volumes/kubernetes.io~downward-api/info/labels'), 'utf8'), 'app="v2"');
  assert.equal(await readFile(join(dir, 'color'), 'utf8'), 'red', 'the last files stay while the object is missing');
  // a volume never set up is a different matter: the pod waits for it
  await assert.rejects(prepareVolumes(pod([{ name: 'fresh', configMap: { name: 'cfg' } }]), root, objects), failedMount(['MountVolume.SetUp failed for volume "fresh" : configmap "cfg" not found']));
}));

test('downwardAPI: fields, labels and annotations in the kubelet\'s format, resources in divisor units, unset limits from the node', async () => withRoot(async root => {
  const p = pod([{
    name: 'info', downwardAPI: {
      defaultMode: 0o600,
      items: [
        { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
        { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
        { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } },
        { path: 'app', fieldRef: { fieldPath: "metadata.labels['app']" }, mode: 0o644 },
        { path: 'cpu_limit', resourceFieldRef: { containerName: 'main', resource: 'limits.cpu' } },
        { path: 'cpu_request_m', resourceFieldRef: { containerName: 'main', resource: 'requests.cpu', divisor: '1m' } },
        { path: 'mem_limit_mi', resourceFieldRef: { containerName: 'main', resource: 'limits.memory', divisor: '1Mi' } },
        { path: 'other_mem_limit', resourceFieldRef: { containerName: 'bare', resource: 'limits.memory', divisor: '1Mi' } },
        { path: 'other_cpu_limit', resourceFieldRef: { containerName: 'bare', resource: 'limits.cpu', divisor: '1m' } },
      ],
    },
  }], { containers: [
    { name: 'main', image: 'i', resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1500m', memory: '128Mi' } } },
    { name: 'bare', image: 'i' },
  ] });
  const v = await prepareVolumes(p, root, objectSource(), { podIPs: [], hostIPs: [], nodeAllocatable: { cpu: '3500m', memory: '2Gi' } });
  const dir = v.get('info')!.hostPath;
  const read = (f: string) => readFile(join(dir, f), 'utf8');
  assert.equal(dir, join(root, 'pods/u-2/volumes/kubernetes.io~downward-api/info'));
  assert.equal(await read('name'), 'web');
  assert.equal(await read('labels'), 'app="web"\ntier="front \\"end\\""');
  assert.equal(await read('annotations'), 'note="a\\nb"');
  assert.equal(await read('app'), 'web');
  assert.deepEqual([await read('cpu_limit'), await read('cpu_request_m'), await read('mem_limit_mi')], ['2', '250', '128']);
  assert.deepEqual([await read('other_mem_limit'), await read('other_cpu_limit')], ['2048', '3500'], 'a limit the container leaves unset is the node\'s allocatable');
  assert.deepEqual([await mode(join(dir, 'name')), await mode(join(dir, 'app'))], [0o600, 0o644]);
  assert.equal(v.get('info')!.readOnly, true);
}));

test('projected: ConfigMap, Secret, downward API and token sources in one directory; problems aggregated; an unsupported source is CreateContainerConfigError by name', async () => withRoot(async root => {
  const objects = objectSource();
  const v = await prepareVolumes(pod([{
    name: 'all', projected: {
      defaultMode: 0o440,
      sources: [
        { configMap: { name: 'cfg', items: [{ key: 'color', path: 'color' }] } },
        { secret: { name: 'sec', items: [{ key: 'token', path: 'creds/token', mode: 0o400 }] } },
        { downwardAPI: { items: [{ path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
        { configMap: { name: 'absent', optional: true } },
      ],
    },
  }]), root, objects);
  const p = v.get('all')!.hostPath;
  assert.equal(p, join(root, 'pods/u-2/volumes/kubernetes.io~projected/all'));
  assert.deepEqual([await readFile(join(p, 'color'), 'utf8'), await readFile(join(p, 'creds/token'), 'utf8'), await readFile(join(p, 'ns'), 'utf8')], ['blue', 's3cret', 'shop']);
  assert.deepEqual([await mode(join(p, 'color')), await mode(join(p, 'creds/token'))], [0o440, 0o400]);
  await assert.rejects(prepareVolumes(pod([{ name: 'two', projected: { sources: [{ configMap: { name: 'nope' } }, { secret: { name: 'sec', items: [{ key: 'k', path: 'k' }] } }] } }]), root, objects),
    failedMount(['MountVolume.SetUp failed for volume "two" : [configmap "nope" not found, references non-existent secret key: k]']));
  await assert.rejects(prepareVolumes(pod([{ name: 't', projected: { sources: [{ clusterTrustBundle: { path: 'ca' } }] } }, { name: 'c', configMap: { name: 'nope' } }]), root, objects),
    failedMount(['MountVolume.SetUp failed for volume "c" : configmap "nope" not found'], 'CreateContainerConfigError', 'projected volume "t": the clusterTrustBundle source is not supported by this node agent yet'));
  // a token source: asked for the pod, its audience and lifetime (the kubelet's TokenRequest)
  const tokenVolume = [{ name: 'kube-api-access-x', projected: { defaultMode: 0o644, sources: [{ serviceAccountToken: { path: 'token', audience: 'vault', expirationSeconds: 3607 } }, { serviceAccountToken: { path: 'api-token' } }] } }];
  await assert.rejects(prepareVolumes(pod(tokenVolume), root, objects),
    failedMount(['MountVolume.SetUp failed for volume "kube-api-access-x" : [failed to fetch token: this node agent has no API server to ask, failed to fetch token: this node agent has no API server to ask]']));
  const asks: unknown[] = [];
  const withTokens = { ...objects, async serviceAccountToken(a: unknown) { asks.push(a); return `jwt-${asks.length}`; } };
  const t = (await prepareVolumes(pod(tokenVolume), root, withTokens)).get('kube-api-access-x')!.hostPath;
  assert.deepEqual([await readFile(join(t, 'token'), 'utf8'), await readFile(join(t, 'api-token'), 'utf8'), await mode(join(t, 'token'))], ['jwt-1', 'jwt-2', 0o644]);
  assert.deepEqual(asks, [
    { namespace: 'shop', serviceAccount: 'default', audiences: ['vault'], expirationSeconds: 3607, pod: { name: 'web', uid: 'u-2' } },
    { namespace: 'shop', serviceAccount: 'default', audiences: [], expirationSeconds: 3600, pod: { name: 'web', uid: 'u-2' } },
  ]);
  const refused = { ...objects, async serviceAccountToken() { throw new Error('serviceaccounts "default" not found'); } };
  await assert.rejects(prepareVolumes(pod([{ name: 'n', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }]), root, refused),
    failedMount(['MountVolume.SetUp failed for volume "n" : failed to fetch token: serviceaccounts "default" not found']));
}));

test('payload paths stay inside the volume; an unsupported volume type or medium is CreateContainerConfigError', async () => withRoot(async root => {
  const objects = objectSource();
  await assert.rejects(prepareVolumes(pod([{ name: 'c', configMap: { name: 'cfg', items: [{ key: 'color', path: '../escape' }] } }]), root, objects),
    failedMount(['MountVolume.SetUp failed for volume "c" : invalid path: "../escape" must not contain \'..\'']));
  await assert.rejects(prepareVolumes(pod([{ name: 'd', downwardAPI: { items: [{ path: '/abs', fieldRef: { fieldPath: 'metadata.name' } }] } }]), root, objects),
    failedMount(['MountVolume.SetUp failed for volume "d" : invalid path: "/abs" must be relative']));
  await assert.rejects(prepareVolumes(pod([{ name: 'x', nfs: { server: 's', path: '/' } }]), root, objects),
    failedMount([], 'CreateContainerConfigError', 'volume "x" has a type (nfs) this node agent does not support'));
  await assert.rejects(prepareVolumes(pod([{ name: 'h', emptyDir: { medium: 'HugePages' } }]), root, objects),
    failedMount([], 'CreateContainerConfigError', 'volume "h": emptyDir medium HugePages is not supported by this node agent'));
}));
