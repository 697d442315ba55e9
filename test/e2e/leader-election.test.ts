// Two `orch controller-manager` processes against one API server: one leads through the
// kube-system/kube-controller-manager Lease and does the work, the other stands by; the leader
// killed with SIGKILL, the standby takes over once the lease has lapsed and the work goes on.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, startOrch } from './support/orch-process.ts';
import { rawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';

test('controller managers elect one leader through a Lease; a killed leader is replaced', { timeout: 90_000 }, async t => {
  const orch = await startOrch({ args: ['--controllers='] });
  t.after(async () => { await orch.stop(); await orch.cleanup(); });
  const c = rawClient(orch.kubeconfig);
  const managers: ChildProcess[] = [];
  const start = () => {
    const child = spawn(join(repoRoot, 'bin/orch'), ['controller-manager', '--kubeconfig', orch.kubeconfig, '--controllers', 'namespace',
      '--leader-elect-lease-duration', '3s', '--leader-elect-renew-deadline', '2s', '--leader-elect-retry-period', '500ms'], { stdio: 'ignore' });
    managers.push(child);
    return child;
  };
  t.after(() => { for (const m of managers) m.kill('SIGKILL'); });
  const lease = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';
  const holder = async () => { const r = await c.request('GET', lease); return r.status === 200 ? r.json().spec.holderIdentity as string : undefined; };
  const namespaceGoes = async (name: string) => {
    assert.equal((await c.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name } }) })).status, 201);
    assert.equal((await c.request('DELETE', `/api/v1/namespaces/${name}`)).status, 200);
    await until(`namespace ${name} finalized`, async () => (await c.request('GET', `/api/v1/namespaces/${name}`)).status === 404, 20_000);
  };

  // the server itself runs no controllers and takes no lease
  await new Promise(r => setTimeout(r, 500));
  assert.equal(await holder(), undefined);
  const first = start();
  const leader = await until('a leader', holder);
  assert.match(leader, /^[^_]+_[0-9a-f-]{36}$/, 'hostname_uuid, as kube-controller-manager names itself');
  start();
  await namespaceGoes('one');
  const events = (await c.request('GET', '/api/v1/namespaces/kube-system/events')).json().items.filter((e: any) => e.reason === 'LeaderElection');
  assert.ok(events.some((e: any) => e.message === `${leader} became leader` && e.involvedObject.kind === 'Lease'), JSON.stringify(events));
  await new Promise(r => setTimeout(r, 1500));
  assert.equal(await holder(), leader, 'the standby does not take a renewed lease');

  first.kill('SIGKILL');
  const next = await until('the standby leads', async () => { const h = await holder(); return h && h !== leader && h; }, 20_000);
  const spec = (await c.request('GET', lease)).json().spec;
  assert.deepEqual([spec.holderIdentity, spec.leaseTransitions, spec.leaseDurationSeconds], [next, 1, 3]);
  await namespaceGoes('two');
});
