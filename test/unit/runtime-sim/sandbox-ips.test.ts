import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criError, startSim } from './sim-fixture.ts';

const ipOf = async (cri: any, podSandboxId: string) => (await cri.podSandboxStatus({ podSandboxId })).status.network.ip as string;

test('sandboxes get distinct IPs from the pod subnet', async t => {
  const { cri, runPod } = await startSim(t, { podSubnet: '10.88.4.0/24' });
  const pods = await Promise.all(Array.from({ length: 20 }, (_, i) => runPod(`p${i}`)));
  const ips = await Promise.all(pods.map(p => ipOf(cri, p.podSandboxId)));
  assert.equal(new Set(ips).size, 20);
  for (const ip of ips) {
    const last = Number(ip.split('.')[3]);
    assert.ok(ip.startsWith('10.88.4.') && last >= 2 && last <= 254, ip);
  }
});

test('an IP is held until its sandbox is stopped (CNI DEL frees it), then given to the next', async t => {
  // a /30 has one address to give: .0 is the network, .1 the gateway, .3 the broadcast
  const { cri, runPod } = await startSim(t, { podSubnet: '192.168.7.0/30' });
  const first = await runPod('a');
  assert.equal(await ipOf(cri, first.podSandboxId), '192.168.7.2');
  await assert.rejects(runPod('b'), criError('UNKNOWN', /no IP addresses available in range set: 192\.168\.7\.0\/30/));
  await cri.stopPodSandbox({ podSandboxId: first.podSandboxId });
  assert.equal(await ipOf(cri, first.podSandboxId), '192.168.7.2', 'a stopped sandbox still names its address');
  // host-local IPAM got it back at stop: finished pods (a Job's thousand) hold no address
  const second = await runPod('b');
  assert.equal(await ipOf(cri, second.podSandboxId), '192.168.7.2');
  // removing the stopped sandbox does not free the address a second time
  await cri.removePodSandbox({ podSandboxId: first.podSandboxId });
  await assert.rejects(runPod('c'), criError('UNKNOWN', /no IP addresses available/));
});

test('host-network sandboxes take no IP and report the host network', async t => {
  const { cri, runPod } = await startSim(t, { podSubnet: '192.168.7.0/30' });
  const host = await runPod('h', { linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } });
  const status = (await cri.podSandboxStatus({ podSandboxId: host.podSandboxId })).status;
  assert.equal(status!.network!.ip, '');
  assert.equal(status!.linux!.namespaces!.options!.network, 'NODE');
  const pod = await runPod('p');
  assert.equal(await ipOf(cri, pod.podSandboxId), '192.168.7.2');
});
