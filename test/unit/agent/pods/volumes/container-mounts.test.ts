// A container's mounts: subPath and subPathExpr (expanded from its variables, checked, made when
// missing, resolved through symlinks and kept inside the volume), readOnly from the mount or the
// volume, mount propagation in the CRI's values; errors in the kubelet's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, realpath, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { containerMounts, prepareVolumes } from '../../../../../src/agent/pods/volumes.ts';
import { expandSubPathExpr } from '../../../../../src/agent/pods/volumes/subpath.ts';
import { ContainerStartError } from '../../../../../src/agent/pods/config-errors.ts';
import type { Container } from '../../../../../src/agent/pods/types.ts';
import { objectSource, pod, withRoot } from './support.ts';

const container = (volumeMounts: unknown[]): Container => ({ name: 'main', image: 'i', volumeMounts } as Container);
const configError = (message: string) => (e: unknown) => e instanceof ContainerStartError && e.reason === 'CreateContainerConfigError' && e.message === message;

test('subPathExpr expansion: $(VAR) from the container\'s variables, $$ escapes, unset and empty ones named', () => {
  const vars = new Map([['POD', 'web-0'], ['EMPTY', '']]);
  assert.deepEqual(expandSubPathExpr('$(POD)/logs', vars), { value: 'web-0/logs', missing: [] });
  assert.deepEqual(expandSubPathExpr('$$(POD)', vars), { value: '$(POD)', missing: [] });
  assert.deepEqual(expandSubPathExpr('$(Z)/$(EMPTY)/$(A)', vars), { value: '//', missing: ['A', 'EMPTY', 'Z'] });
});

test('mounts: read-only from the mount or the volume, propagation as the CRI names it, subPath inside the volume', async () => withRoot(async root => {
  const vols = await prepareVolumes(pod([{ name: 'data', emptyDir: {} }, { name: 'conf', configMap: { name: 'cfg' } }]), root, objectSource());
  const data = vols.get('data')!.hostPath, conf = vols.get('conf')!.hostPath;
  const mounts = await containerMounts(container([
    { name: 'data', mountPath: '/data' },
    { name: 'data', mountPath: '/ro', readOnly: true, mountPropagation: 'None' },
    { name: 'conf', mountPath: '/conf' },
    { name: 'data', mountPath: '/h2c', mountPropagation: 'HostToContainer' },
    { name: 'data', mountPath: '/bi', mountPropagation: 'Bidirectional' },
    { name: 'data', mountPath: '/logs', subPathExpr: '$(POD_NAME)/logs' },
  ]), vols, [{ key: 'POD_NAME', value: 'web-0' }]);
  assert.deepEqual(mounts.map(m => [m.containerPath, m.hostPath, m.readonly, m.propagation]), [
    ['/data', data, false, 'PROPAGATION_PRIVATE'],
    ['/ro', data, true, 'PROPAGATION_PRIVATE'],
    ['/conf', conf, true, 'PROPAGATION_PRIVATE'],
    ['/h2c', data, false, 'PROPAGATION_HOST_TO_CONTAINER'],
    ['/bi', data, false, 'PROPAGATION_BIDIRECTIONAL'],
    ['/logs', await realpath(join(data, 'web-0/logs')), false, 'PROPAGATION_PRIVATE'],
  ]);
  // the missing subPath was made, with the volume's mode
  assert.equal((await stat(join(data, 'web-0/logs'))).mode & 0o777, 0o777);
}));

test('a ConfigMap subPath mounts the file of the version it starts with, which later updates leave alone', async () => withRoot(async root => {
  const objects = objectSource();
  const p = pod([{ name: 'conf', configMap: { name: 'cfg' } }]);
  const vols = await prepareVolumes(p, root, objects);
  const [m] = await containerMounts(container([{ name: 'conf', mountPath: '/etc/color', subPath: 'color' }]), vols, []);
  assert.match(m!.hostPath!, /kubernetes\.io~configmap\/conf\/\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\w+\/color$/);
  assert.equal(await readFile(m!.hostPath!, 'utf8'), 'blue');
  objects.store['configmaps/cfg'] = { data: { color: 'red' } };
  await prepareVolumes(p, root, objects);
  assert.equal(await readFile(join(vols.get('conf')!.hostPath, 'color'), 'utf8'), 'red');
  const [again] = await containerMounts(container([{ name: 'conf', mountPath: '/etc/color', subPath: 'color' }]), vols, []);
  assert.notEqual(again!.hostPath, m!.hostPath, 'a new container start takes the new version');
}));

test('subPath errors: absolute, escaping, unset variables, symlinks out of the volume, missing volumes', async () => withRoot(async root => {
  const vols = await prepareVolumes(pod([{ name: 'data', emptyDir: {} }]), root, objectSource());
  const data = vols.get('data')!.hostPath;
  const mount = (m: Record<string, unknown>, envs: Array<{ key: string; value: string }> = []) => containerMounts(container([{ name: 'data', mountPath: '/x', ...m }]), vols, envs);
  await assert.rejects(mount({ subPath: '/etc' }), configError('error SubPath `/etc` must not be an absolute path'));
  await assert.rejects(mount({ subPath: 'a/../../b' }), configError('unable to provision SubPath `a/../../b`: must not contain \'..\''));
  await assert.rejects(mount({ subPathExpr: '$(POD)/$(NODE)' }, [{ key: 'POD', value: '' }]), configError('missing value for NODE, POD'));
  await assert.rejects(mount({ subPathExpr: '../$(POD)' }, [{ key: 'POD', value: 'p' }]), configError('unable to provision SubPath `../p`: must not contain \'..\''));
  await mkdir(join(root, 'outside'));
  await symlink(join(root, 'outside'), join(data, 'escape'));
  await assert.rejects(mount({ subPath: 'escape' }), configError('failed to prepare subPath for volumeMount "data" of container "main"'));
  await assert.rejects(mount({ subPath: 'escape/made' }), configError('failed to create subPath directory for volumeMount "data" of container "main"'));
  await assert.rejects(stat(join(root, 'outside/made')), { code: 'ENOENT' }, 'nothing made outside the volume');
  await symlink('.', join(data, 'self'));
  assert.equal((await mount({ subPath: 'self' }))[0]!.hostPath, await realpath(data), 'a link that stays inside is followed');
  await assert.rejects(containerMounts(container([{ name: 'nope', mountPath: '/n' }]), vols, []), configError('cannot find volume "nope" to mount into container "main"'));
  await assert.rejects(mount({ mountPropagation: 'Sideways' }), configError('invalid MountPropagation mode: "Sideways"'));
}));
