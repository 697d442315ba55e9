import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { createLogger } from '../../../../src/api/log.ts';
import { devicePluginsDir, startDevices } from '../../../../src/agent/devices/start.ts';
import { podResourcesService, podResourcesSocket } from '../../../../src/agent/podresources/server.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';
import { fakeClock } from '../fake-clock.ts';
import { startFakePlugin, until } from '../devices/fake-plugin.ts';

const R = 'example.com/nic';
type Unary = (req: unknown, md: Metadata, cb: (err: ServiceError | null, res: unknown) => void) => void;

for (const getEnabled of [true, false]) {
  test(`pod resources over grpc-js: List, GetAllocatableResources${getEnabled ? ', Get' : ', Get with its gate off'}; the socket is root's`, { skip: process.platform !== 'linux' && 'UNIX sockets' }, async t => {
    const root = await mkdtemp(join(tmpdir(), 'devices-podres-'));
    const withNic: Pod = { metadata: { uid: 'u1', name: 'web', namespace: 'ns1' }, spec: { initContainers: [{ name: 'proxy', image: 'i', restartPolicy: 'Always' }, { name: 'setup', image: 'i' }], containers: [{ name: 'app', image: 'i', resources: { limits: { [R]: '1' } } }] } } as Pod;
    const plain: Pod = { metadata: { uid: 'u2', name: 'plain', namespace: 'ns1' }, spec: { containers: [{ name: 'c', image: 'i' }] } } as Pod;
    const devices = await startDevices({ rootDir: root, activePods: () => [withNic, plain], onChange: () => undefined, podResourcesGet: getEnabled, clock: fakeClock(), log: createLogger('error') });
    const plugin = await startFakePlugin(join(devicePluginsDir(root), 'nic.sock'), { devices: [{ ID: 'n0', health: 'Healthy', topology: { nodes: [{ ID: 1 }] } }, { ID: 'n1', health: 'Healthy' }, { ID: 'n2', health: 'Unhealthy' }], preferred: () => ['n0'] });
    const Ctor = podResourcesService();
    const client = new Ctor(`unix:${podResourcesSocket(root)}`, credentials.createInsecure()) as Client & Record<string, Unary>;
    t.after(async () => { client.close(); plugin.stop(); await devices.stop(); await rm(root, { recursive: true, force: true }); });
    assert.equal(podResourcesSocket(root), join(root, 'pod-resources', 'agent.sock'));
    assert.equal((await stat(podResourcesSocket(root))).mode & 0o777, 0o600);
    await plugin.register(join(devicePluginsDir(root), 'agent.sock'), R);
    await until(() => devices.manager.capacity().capacity[R] === '3', 'devices');
    assert.deepEqual(await devices.manager.admit(withNic), { admit: true });
    const call = (m: string, req: unknown) => new Promise<any>((resolve, reject) => client[m]!({ ...(req as object) }, new Metadata(), (err, res) => (err ? reject(err) : resolve(res))));

    const list = await call('List', {});
    assert.deepEqual(list.podResources.map((p: any) => [p.name, p.namespace, p.containers.map((c: any) => c.name)]), [['web', 'ns1', ['proxy', 'app']], ['plain', 'ns1', ['c']]]);
    const app = list.podResources[0].containers[1];
    assert.deepEqual(app.devices, [{ resourceName: R, deviceIds: ['n0'], topology: { nodes: [{ ID: 1 }] } }]);
    assert.deepEqual(app.cpuIds, []);
    assert.deepEqual(app.memory, []);
    assert.deepEqual(list.podResources[0].containers[0].devices, []);

    const alloc = await call('GetAllocatableResources', {});
    assert.deepEqual(alloc.devices, [{ resourceName: R, deviceIds: ['n0'], topology: { nodes: [{ ID: 1 }] } }, { resourceName: R, deviceIds: ['n1'], topology: null }]);
    assert.deepEqual(alloc.cpuIds, []);

    if (getEnabled) {
      const got = await call('Get', { podName: 'web', podNamespace: 'ns1' });
      assert.deepEqual(got.podResources, list.podResources[0]);
      await assert.rejects(call('Get', { podName: 'web', podNamespace: 'other' }), (err: ServiceError) => err.code === 2 && err.details === 'pod web in namespace other not found');
    } else {
      await assert.rejects(call('Get', { podName: 'web', podNamespace: 'ns1' }), (err: ServiceError) => err.code === 2 && err.details === 'PodResources API Get method disabled');
    }
  });
}
