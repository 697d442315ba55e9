import { test } from 'node:test';
import assert from 'node:assert/strict';
import { credentials } from '@grpc/grpc-js';
import { criServices } from '../../../src/agent/cri/descriptor.ts';
import { grpcAddress } from '../../../src/agent/cri/client.ts';
import { criError, startSim } from './sim-fixture.ts';

test('Version, Status and RuntimeConfig describe a ready runtime', async t => {
  const { cri } = await startSim(t);
  const version = await cri.version({ version: 'v1' });
  assert.deepEqual(version, { version: '0.1.0', runtimeName: 'orch-runtime-sim', runtimeVersion: version.runtimeVersion, runtimeApiVersion: 'v1' });
  assert.match(version.runtimeVersion, /^\d+\.\d+\.\d+/);
  const status = await cri.status({});
  assert.deepEqual(status.status!.conditions.map((c: any) => [c.type, c.status]), [['RuntimeReady', true], ['NetworkReady', true]]);
  assert.deepEqual(status.runtimeHandlers.map((h: any) => h.name), ['', 'runc']);
  assert.deepEqual(status.info, {});
  await cri.updateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: '10.244.3.0/24' } } });
  assert.equal(JSON.parse((await cri.status({ verbose: true })).info!.config).podCidr, '10.244.3.0/24');
  assert.deepEqual(await cri.runtimeConfig({}), { linux: { cgroupDriver: 'CGROUPFS' } });
});

test('what a sim has nothing behind answers UNIMPLEMENTED in grpc-go\'s words', async t => {
  const { cri, sim } = await startSim(t);
  const calls = { listMetricDescriptors: 'ListMetricDescriptors', listPodSandboxMetrics: 'ListPodSandboxMetrics' } as const;
  for (const [call, method] of Object.entries(calls)) {
    await assert.rejects(cri[call as keyof typeof calls]({}), criError('UNIMPLEMENTED', new RegExp(`desc = method ${method} not implemented$`)), call);
  }
  // a streaming method ends its stream with the same status
  const { RuntimeService } = criServices();
  const raw = new RuntimeService(grpcAddress(sim.endpoint), credentials.createInsecure());
  t.after(() => raw.close());
  const stream = (raw as any).GetContainerEvents({});
  stream.on('data', () => {});
  const err: any = await new Promise(resolve => stream.on('error', resolve));
  assert.equal(err.details, 'method GetContainerEvents not implemented');
  assert.equal(err.code, 12);
});

test('UpdateContainerResources is kept and shown in the status', async t => {
  const { cri, runPod, runContainer } = await startSim(t);
  const pod = await runPod('p');
  const containerId = await runContainer(pod, { command: ['sleep', '3600'], linux: { resources: { cpuShares: 102, memoryLimitInBytes: 64 << 20 } } });
  assert.equal((await cri.containerStatus({ containerId })).status!.resources!.linux!.cpuShares, 102);
  await cri.updateContainerResources({ containerId, linux: { cpuShares: 512, cpuQuota: 50_000, cpuPeriod: 100_000, memoryLimitInBytes: 128 << 20 } });
  const linux = (await cri.containerStatus({ containerId })).status!.resources!.linux;
  assert.deepEqual([linux!.cpuShares, linux!.cpuQuota, linux!.memoryLimitInBytes], [512, 50_000, 128 << 20]);
  await cri.stopContainer({ containerId, timeout: 1 });
  await assert.rejects(cri.updateContainerResources({ containerId, linux: { cpuShares: 2 } }), criError('UNKNOWN', /CONTAINER_EXITED state/));
});
