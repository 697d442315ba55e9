// Volume types on the host as the kubelet lays them out: hostPath type checks, downward API
// files (fields, labels and annotations as `key="value"` lines, resources in divisor units),
// projected volumes combining sources, missing keys and optional sources, subPathExpr.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareVolumes } from '../../../../src/agent/pods/volumes.ts';
import { containerConfig } from '../../../../src/agent/pods/cri-config.ts';
import { ContainerStartError } from '../../../../src/agent/pods/config-errors.ts';
import type { DataObject, ObjectSource } from '../../../../src/agent/pods/object-source.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';

const objects: ObjectSource = {
  async get(kind, _ns, name): Promise<DataObject | undefined> {
    if (kind === 'configmaps' && name === 'cfg') return { data: { color: 'blue', size: 'L' } };
    if (kind === 'secrets' && name === 'sec') return { data: { token: Buffer.from('s3cret').toString('base64') } };
    return undefined;
  },
};

function pod(volumes: unknown[], labels: Record<string, string> = { app: 'web', tier: 'front "end"' }): Pod {
  return {
    metadata: { name: 'web', namespace: 'shop', uid: 'u-2', labels, annotations: { note: 'a\nb' } },
    spec: { nodeName: 'n1', volumes, containers: [{ name: 'main', image: 'i', resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1500m', memory: '128Mi' } } }] },
  } as unknown as Pod;
}

async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'orch-vols-'));
  try { await fn(root); } finally { await rm(root, { recursive: true, force: true }); }
}

const configError = (message: RegExp) => (e: unknown) => e instanceof ContainerStartError && e.reason === 'CreateContainerConfigError' && message.test(e.message);

test('hostPath: each type checked as the kubelet checks it; the *OrCreate types create', async () => withRoot(async root => {
  const dir = join(root, 'd'), file = join(root, 'f');
  await mkdir(dir);
  await writeFile(file, 'x');
  const ok = async (path: string, type: string) => (await prepareVolumes(pod([{ name: 'h', hostPath: { path, type } }]), root, objects)).get('h');
  assert.equal((await ok(dir, 'Directory'))!.hostPath, dir);
  assert.equal((await ok(file, 'File'))!.hostPath, file);
  await assert.rejects(ok(file, 'Directory'), configError(/hostPath type check failed: .*\/f is not a directory/));
  await assert.rejects(ok(dir, 'File'), configError(/is not a file/));
  await assert.rejects(ok(file, 'Socket'), configError(/is not a socket file/));
  await assert.rejects(ok(file, 'CharDevice'), configError(/is not a character device/));
  await assert.rejects(ok(join(root, 'missing'), 'BlockDevice'), configError(/is not a block device/));
  assert.ok((await stat('/dev/null')).isCharacterDevice() && (await ok('/dev/null', 'CharDevice')));
  await ok(join(root, 'made/deep'), 'DirectoryOrCreate');
  assert.ok((await stat(join(root, 'made/deep'))).isDirectory());
  await ok(join(root, 'new-file'), 'FileOrCreate');
  assert.ok((await stat(join(root, 'new-file'))).isFile());
  assert.equal((await ok(join(root, 'anything'), ''))!.hostPath, join(root, 'anything'), 'no type: no check');
}));

test('downwardAPI: fields, labels and annotations in the kubelet\'s format, resources in divisor units, modes', async () => withRoot(async root => {
  const v = await prepareVolumes(pod([{
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
      ],
    },
  }]), root, objects);
  const p = v.get('info')!.hostPath;
  const read = (f: string) => readFile(join(p, f), 'utf8');
  assert.equal(await read('name'), 'web');
  assert.equal(await read('labels'), 'app="web"\ntier="front \\"end\\""');
  assert.equal(await read('annotations'), 'note="a\\nb"');
  assert.equal(await read('app'), 'web');
  assert.deepEqual([await read('cpu_limit'), await read('cpu_request_m'), await read('mem_limit_mi')], ['2', '250', '128']);
  assert.equal((await stat(join(p, 'name'))).mode & 0o777, 0o600);
  assert.equal((await stat(join(p, 'app'))).mode & 0o777, 0o644);
  assert.equal(v.get('info')!.readOnly, true);
  // a label change is written on the next sync, through the same mount point
  await prepareVolumes(pod([{ name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }], { app: 'web2' }), root, objects);
  assert.equal(await read('labels'), 'app="web2"');
}));

test('projected: ConfigMap, Secret and downward API sources in one directory; a token source is refused by name', async () => withRoot(async root => {
  const v = await prepareVolumes(pod([{
    name: 'all', projected: {
      sources: [
        { configMap: { name: 'cfg', items: [{ key: 'color', path: 'color' }] } },
        { secret: { name: 'sec' } },
        { downwardAPI: { items: [{ path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
        { configMap: { name: 'absent', optional: true } },
      ],
    },
  }]), root, objects);
  const p = v.get('all')!.hostPath;
  assert.deepEqual([await readFile(join(p, 'color'), 'utf8'), await readFile(join(p, 'token'), 'utf8'), await readFile(join(p, 'ns'), 'utf8')], ['blue', 's3cret', 'shop']);
  await assert.rejects(prepareVolumes(pod([{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }]), root, objects),
    configError(/projected volume "t": the serviceAccountToken source is not supported by this node agent yet/));
}));

test('missing objects and keys: errors unless optional', async () => withRoot(async root => {
  await assert.rejects(prepareVolumes(pod([{ name: 'c', configMap: { name: 'nope' } }]), root, objects), configError(/^configmap "nope" not found$/));
  await assert.rejects(prepareVolumes(pod([{ name: 'c', configMap: { name: 'cfg', items: [{ key: 'nokey', path: 'x' }] } }]), root, objects), configError(/^configmap references non-existent config key: nokey$/));
  await assert.rejects(prepareVolumes(pod([{ name: 's', secret: { secretName: 'sec', items: [{ key: 'nokey', path: 'x' }] } }]), root, objects), configError(/^secret references non-existent secret key: nokey$/));
  const v = await prepareVolumes(pod([{ name: 'c', configMap: { name: 'cfg', optional: true, items: [{ key: 'nokey', path: 'x' }, { key: 'size', path: 's' }] } }]), root, objects);
  assert.equal(await readFile(join(v.get('c')!.hostPath, 's'), 'utf8'), 'L');
}));

test('subPathExpr expands the container\'s variables; an absolute or escaping result is refused', () => {
  const p = pod([]);
  const c = { ...p.spec.containers[0]!, volumeMounts: [{ name: 'data', mountPath: '/data', subPathExpr: '$(POD_NAME)/logs' }] };
  const volumes = new Map([['data', { hostPath: '/var/lib/x', readOnly: false }]]);
  const cc = containerConfig({ pod: p, container: c, restartCount: 0, envs: [{ key: 'POD_NAME', value: 'web-0' }], volumes });
  assert.equal(cc.mounts![0]!.hostPath, '/var/lib/x/web-0/logs');
  for (const bad of ['../$(POD_NAME)', '/abs']) {
    assert.throws(() => containerConfig({ pod: p, container: { ...c, volumeMounts: [{ name: 'data', mountPath: '/data', subPathExpr: bad }] }, restartCount: 0, envs: [{ key: 'POD_NAME', value: 'web-0' }], volumes }), /invalid subpath/);
  }
});
