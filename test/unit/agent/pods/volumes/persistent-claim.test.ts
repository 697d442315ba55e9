// persistentVolumeClaim volumes: the claim's volume on this node is what containers mount; the
// local-path provisioner's directory is made on first use; claims not ready are FailedMount in
// the kubelet's words, and volume types the agent does not serve are refused by name.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, stat, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareVolumes } from '../../../../../src/agent/pods/volumes.ts';
import { failedMount, objectSource, pod, withRoot } from './support.ts';

const claim = (phase = 'Bound', o: { volumeName?: string; deleting?: boolean } = {}) => ({
  metadata: { name: 'data', namespace: 'shop', uid: 'claim-uid', deletionTimestamp: o.deleting ? '2026-01-01T00:00:00Z' : undefined },
  spec: { volumeName: o.volumeName ?? 'pvc-1' },
  status: { phase },
});
const volume = (source: Record<string, unknown>, o: { uid?: string; provisioned?: boolean } = {}) => ({
  metadata: { name: 'pvc-1', annotations: o.provisioned ? { 'pv.kubernetes.io/provisioned-by': 'orch.io/local-path' } : {} },
  spec: { claimRef: { name: 'data', namespace: 'shop', uid: o.uid ?? 'claim-uid' }, ...source },
});
const podWith = (readOnly = false, fsGroup?: number) => {
  const p = pod([{ name: 'data', persistentVolumeClaim: { claimName: 'data', readOnly } }]);
  if (fsGroup !== undefined) (p.spec as any).securityContext = { fsGroup };
  return p;
};
const prefix = 'Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: error processing PVC shop/data: ';

test('a bound claim\'s hostPath volume is mounted, its directory made as the provisioner asked; data outlives the pod', async () => withRoot(async root => {
  const path = join(root, 'storage/pvc-1_shop_data');
  const objects = objectSource(undefined, { 'persistentvolumeclaims/shop/data': claim(), 'persistentvolumes/pvc-1': volume({ hostPath: { path, type: 'DirectoryOrCreate' } }, { provisioned: true }) });
  const got = await prepareVolumes(podWith(), root, objects);
  assert.deepEqual(got.get('data'), { hostPath: path, readOnly: false });
  assert.ok((await stat(path)).isDirectory());
  await writeFile(join(path, 'kept'), 'hello');
  // another pod (another uid) with the same claim finds what the first wrote
  const again = await prepareVolumes({ ...podWith(true), metadata: { ...podWith().metadata, uid: 'u-3' } } as never, root, objects);
  assert.deepEqual(again.get('data'), { hostPath: path, readOnly: true });
  assert.equal(await readFile(join(path, 'kept'), 'utf8'), 'hello');
}));

test('local volumes must exist unless orch\'s local-path provisioner made them', async () => withRoot(async root => {
  const path = join(root, 'disk');
  const mine = objectSource(undefined, { 'persistentvolumeclaims/shop/data': claim(), 'persistentvolumes/pvc-1': volume({ local: { path } }, { provisioned: true }) });
  assert.equal((await prepareVolumes(podWith(), root, mine)).get('data')!.hostPath, path);
  const other = join(root, 'absent');
  const theirs = objectSource(undefined, { 'persistentvolumeclaims/shop/data': claim(), 'persistentvolumes/pvc-1': volume({ local: { path: other } }) });
  await assert.rejects(prepareVolumes(podWith(), root, theirs), failedMount([`MountVolume.SetUp failed for volume "data" : hostPath type check failed: ${other} is not a directory`]));
  await mkdir(other);
  assert.equal((await prepareVolumes(podWith(), root, theirs)).get('data')!.hostPath, other);
}));

test('claims that are missing, unbound, going, or whose volume is not theirs hold the pod in the kubelet\'s words', async () => withRoot(async root => {
  const src = (c: unknown, v?: unknown) => objectSource(undefined, { ...(c ? { 'persistentvolumeclaims/shop/data': c } : {}), ...(v ? { 'persistentvolumes/pvc-1': v } : {}) });
  const hp = { hostPath: { path: join(root, 'x'), type: 'DirectoryOrCreate' } };
  await assert.rejects(prepareVolumes(podWith(), root, src(undefined)), failedMount([`${prefix}failed to fetch PVC from API server: persistentvolumeclaims "data" not found`]));
  await assert.rejects(prepareVolumes(podWith(), root, src(claim('Pending'))), failedMount([`${prefix}PVC is not bound`]));
  await assert.rejects(prepareVolumes(podWith(), root, src(claim('Bound', { deleting: true }))), failedMount([`${prefix}PVC is being deleted`]));
  await assert.rejects(prepareVolumes(podWith(), root, src(claim())), failedMount([`${prefix}failed to fetch PV pvc-1 from API server: persistentvolumes "pvc-1" not found`]));
  await assert.rejects(prepareVolumes(podWith(), root, src(claim(), volume(hp, { uid: 'other' }))), failedMount([`${prefix}found PV object pvc-1 but its pv.Spec.ClaimRef.UID (other) does not point to claim.UID (claim-uid)`]));
}));

test('volume sources the agent does not serve are refused by name', async () => withRoot(async root => {
  const objects = objectSource(undefined, { 'persistentvolumeclaims/shop/data': claim(), 'persistentvolumes/pvc-1': volume({ nfs: { server: 'nas', path: '/export' } }) });
  await assert.rejects(prepareVolumes(podWith(), root, objects), failedMount([], 'CreateContainerConfigError', 'volume "data": persistent volume pvc-1 has a type (nfs) this node agent does not support'));
}));

test('a generic ephemeral volume mounts the claim made for the pod, and refuses one the pod does not own', async () => withRoot(async root => {
  const path = join(root, 'eph');
  const p = pod([{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }]);
  const made = (owner: string) => ({ ...claim(), metadata: { name: 'web-scratch', namespace: 'shop', uid: 'claim-uid', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web', uid: owner, controller: true }] } });
  const ours = objectSource(undefined, { 'persistentvolumeclaims/shop/web-scratch': made('u-2'), 'persistentvolumes/pvc-1': volume({ hostPath: { path, type: 'DirectoryOrCreate' } }) });
  assert.deepEqual((await prepareVolumes(p, root, ours)).get('scratch'), { hostPath: path, readOnly: false });
  const theirs = objectSource(undefined, { 'persistentvolumeclaims/shop/web-scratch': made('someone-else') });
  await assert.rejects(prepareVolumes(p, root, theirs), failedMount(['Unable to attach or mount volumes: unmounted volumes=[scratch], unattached volumes=[scratch]: error processing PVC shop/web-scratch: PVC shop/web-scratch was not created for pod shop/web (pod is not owner)']));
}));

test('a pod\'s claim is looked up once, then its volume is remembered for the pod', async () => withRoot(async root => {
  const path = join(root, 'once');
  const objects = objectSource(undefined, { 'persistentvolumeclaims/shop/data': claim(), 'persistentvolumes/pvc-1': volume({ hostPath: { path, type: 'DirectoryOrCreate' } }) });
  let lookups = 0;
  const counted = { ...objects, resolved: new Map(), claim: (ns: string, n: string) => { lookups++; return objects.claim(ns, n); } };
  await prepareVolumes(podWith(), root, counted);
  await prepareVolumes(podWith(), root, counted);
  assert.equal(lookups, 1);
  // another pod with the same claim looks it up for itself
  await prepareVolumes({ ...podWith(), metadata: { ...podWith().metadata, uid: 'u-9' } } as never, root, counted);
  assert.equal(lookups, 2);
}));
