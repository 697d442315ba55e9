// One pod-behaviour suite, run on each runtime (test/e2e/support/pod-runtimes.ts): real
// containerd with the local busybox image, and `orch runtime-sim`. The same cases, the same
// expectations: a pod runs, gets an IP and is Ready; a Job-like pod ends Completed (Succeeded)
// and stays so across an agent restart, as kubectl 1.33 and 1.27 show it; what a container sees
// (hostname, working directory, env, /etc/hosts and /etc/resolv.conf) and its log as kubectl shows it; a crashing container
// shows CrashLoopBackOff with a growing back-off, and so does a command missing from the image
// (StartError); a delete stops the container gracefully (SIGTERM
// first, which a container's PID 1 ignores without a trap, SIGKILL only at the grace period's
// end). In CI both runtimes run: a missing tool fails.

import { suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { requires } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { image, runtimeKinds, startPodCluster, type PodCluster } from './support/pod-runtimes.ts';
import { until } from './support/until.ts';

const getPod = async (k: PodCluster, name: string) => { const r = await k.c.request('GET', `/api/v1/namespaces/default/pods/${name}`); return r.status === 200 ? r.json() : undefined; };
const cond = (pod: any, type: string) => pod?.status?.conditions?.find((x: any) => x.type === type);

async function createPod(k: PodCluster, name: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}): Promise<any> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: k.node, containers: [{ name: 'main', image, imagePullPolicy: 'IfNotPresent', ...container }], ...spec } };
  const r = await k.c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201, r.body);
  return r.json();
}

const forever = ['sh', '-c', 'while true; do sleep 1; done'];

// the two runtimes' clusters side by side: each has its own server, node and pod subnet
suite('pod behaviour on each runtime', { concurrency: true }, () => {
  for (const kind of runtimeKinds) {
    test(`pod behaviour on ${kind.name}`, { ...requires(kind.missing()), timeout: 240_000 }, async t => {
      const k = await startPodCluster(kind, t);

      await t.test('a pod runs, gets an IP and turns Ready', async () => {
        await createPod(k, 'web', { command: forever, readinessProbe: { exec: { command: ['true'] }, periodSeconds: 1 } });
        const pod = await until('web Ready', async () => { const p = await getPod(k, 'web'); return cond(p, 'Ready')?.status === 'True' && p; });
        assert.equal(pod.status.phase, 'Running');
        assert.match(pod.status.podIP, /^\d+\.\d+\.\d+\.\d+$/);
        assert.notEqual(pod.status.podIP, '127.0.0.1', 'the sandbox\'s own address, not the node\'s');
        assert.deepEqual(pod.status.podIPs, [{ ip: pod.status.podIP }]);
        assert.equal(pod.status.hostIP, '127.0.0.1');
        const s = pod.status.containerStatuses[0];
        assert.ok(s.state.running?.startedAt, JSON.stringify(s));
        assert.equal(s.ready, true);
        assert.equal(s.started, true);
        assert.equal(s.restartCount, 0);
        assert.match(s.containerID, kind.name === 'containerd' ? /^containerd:\/\/[0-9a-f]{64}$/ : /^\w[\w-]*:\/\/\S+$/);
        for (const type of ['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'PodScheduled']) assert.equal(cond(pod, type)?.status, 'True', type);
        // the node declares exactly the gated features that work, whatever the runtime
        const node = (await k.c.request('GET', `/api/v1/nodes/${k.node}`)).json();
        assert.deepEqual(node.status.declaredFeatures, ['ContainerCheckpoint', 'GracefulNodeShutdown', 'GracefulNodeShutdownBasedOnPodPriority', 'KubeletEnsureSecretPulledImages', 'KubeletPodResourcesGet', 'NodeDeclaredFeatures', 'SystemdWatchdog']);
      });

      await t.test('a checkpoint through nodes/<node>/proxy: an archive on the simulated runtime, containerd 1.6\'s Unimplemented as a 500', async () => {
        const res = await k.c.request('POST', `/api/v1/nodes/${k.node}/proxy/checkpoint/default/web/main`);
        if (kind.name === 'runtime-sim') {
          assert.equal(res.status, 200, res.body);
          const archive = res.json().items[0];
          assert.match(archive, /\/checkpoints\/checkpoint-web_default-main-\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)\.tar$/);
          assert.ok(existsSync(archive), archive);
        } else {
          assert.deepEqual([res.status, res.body], [500, 'checkpointing of default/web/main failed (rpc error: code = Unimplemented desc = method CheckpointContainer not implemented)']);
        }
      });

      await t.test('a Job-like pod ends Completed (Succeeded) and stays so across an agent restart, also with its sandbox gone', async () => {
        await createPod(k, 'job', { command: ['sh', '-c', 'echo working; exit 0'] }, { restartPolicy: 'Never' });
        const done = await until('job Succeeded', async () => { const p = await getPod(k, 'job'); return p?.status?.phase === 'Succeeded' && p; });
        const terminated = done.status.containerStatuses[0].state.terminated;
        assert.equal(terminated.reason, 'Completed');
        assert.equal(terminated.exitCode, 0);
        assert.equal(cond(done, 'Ready')?.reason, 'PodCompleted');
        const before = await k.containersOf('job');
        assert.equal(before.length, 1);

        await k.restartAgent();
        // several relists and syncs of the restarted agent
        await new Promise(r => setTimeout(r, 5000));
        const after = await getPod(k, 'job');
        assert.equal(after.status.phase, 'Succeeded');
        assert.deepEqual(after.status.containerStatuses[0].state.terminated, terminated, 'what the finished container said stays said');
        assert.deepEqual((await k.containersOf('job')).map(x => x.id), before.map(x => x.id), 'nothing ran again');
        // and when the runtime has lost its sandbox too: still finished, and not run again
        await k.restartAgent(() => k.removeSandboxes('job'));
        await new Promise(r => setTimeout(r, 5000));
        const lost = await getPod(k, 'job');
        assert.equal(lost.status.phase, 'Succeeded');
        assert.deepEqual(lost.status.containerStatuses[0].state.terminated, terminated);
        assert.deepEqual(await k.containersOf('job'), [], 'no new sandbox, no new container');
        const bins = kubectls();
        assert.ok(bins.some(b => b.label === '1.33') && bins.some(b => b.label === '1.27') || process.env.CI !== 'true', 'kubectl 1.33 and 1.27 in CI');
        for (const b of bins) {
          const json = await kubectl(b.path, k.orch.kubeconfig, ['get', 'pod', 'job', '-o', 'jsonpath={.status.phase} {.status.containerStatuses[0].state.terminated.reason}']);
          assert.equal(json.stdout, 'Succeeded Completed', `kubectl ${b.label}: ${json.stderr}`);
          const table = await kubectl(b.path, k.orch.kubeconfig, ['get', 'pod', 'job', '--no-headers']);
          assert.match(table.stdout, /^job\s+0\/1\s+Completed\s+0\s+/, `kubectl ${b.label}: ${table.stdout}${table.stderr}`);
        }
      });

      await t.test('what a container sees and writes: hostname, working directory, env, /bin; its log with stderr and a last line without a newline', async () => {
        const script = 'echo "host=$HOSTNAME pwd=$PWD foo=$FOO"; cat /etc/hostname; pwd; test -x /bin/sh && echo has-sh; echo to-stderr >&2; sleep 1; printf "no newline"';
        await createPod(k, 'env', { command: ['sh', '-c', script], workingDir: '/tmp', env: [{ name: 'FOO', value: 'bar $(HOSTNAME) $$(FOO)' }] }, { restartPolicy: 'Never' });
        await until('env Succeeded', async () => (await getPod(k, 'env'))?.status?.phase === 'Succeeded');
        for (const b of kubectls()) {
          const r = await kubectl(b.path, k.orch.kubeconfig, ['logs', 'env']);
          assert.equal(r.code, 0, r.stderr);
          // stdout and stderr reach the log through separate pipes, in no fixed order between them
          assert.ok(r.stdout.endsWith('\nno newline'), `kubectl ${b.label}: the last line as written: ${JSON.stringify(r.stdout)}`);
          assert.deepEqual(r.stdout.split('\n').sort(), ['env', 'has-sh', 'host=env pwd=/tmp foo=bar $(HOSTNAME) $(FOO)', 'no newline', 'to-stderr', '/tmp'].sort(), `kubectl ${b.label}`);
        }
      });

      await t.test('the pod\'s /etc/hosts and /etc/resolv.conf as the kubelet has them written: hostname.subdomain, hostAliases, ClusterFirst and None', async () => {
        const show = ['sh', '-c', 'cat /etc/hosts; echo ---; cat /etc/resolv.conf'];
        await createPod(k, 'named', { command: show }, { restartPolicy: 'Never', hostname: 'db-0', subdomain: 'db', hostAliases: [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar.local'] }], dnsConfig: { searches: ['corp.example'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] } });
        await createPod(k, 'own-dns', { command: show }, { restartPolicy: 'Never', dnsPolicy: 'None', dnsConfig: { nameservers: ['192.0.2.53'], searches: ['example.com'] } });
        const named = await until('named Succeeded', async () => { const p = await getPod(k, 'named'); return p?.status?.phase === 'Succeeded' && p; });
        await until('own-dns Succeeded', async () => (await getPod(k, 'own-dns'))?.status?.phase === 'Succeeded');
        const log = async (name: string) => { const r = await kubectl(kubectls()[0]!.path, k.orch.kubeconfig, ['logs', name]); assert.equal(r.code, 0, r.stderr); return r.stdout.split('---\n'); };
        const [hosts, resolv] = await log('named');
        assert.equal(hosts, '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n'
          + `${named.status.podIP}\tdb-0.db.default.svc.cluster.local\tdb-0\n\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar.local\n`);
        // the host's search paths sit between the cluster's and the pod's own
        const lines = resolv!.trim().split('\n');
        assert.match(lines[0]!, /^search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local( \S+)* corp\.example$/);
        assert.deepEqual(lines.slice(1), ['nameserver 10.96.0.10', 'options ndots:2 edns0']);
        assert.equal((await log('own-dns'))[1], 'search example.com\nnameserver 192.0.2.53\n');
      });

      await t.test('a crashing container shows CrashLoopBackOff, its back-off growing', async () => {
        const created = await createPod(k, 'crash', { command: ['sh', '-c', 'echo boom; exit 3'] });
        const message = (delay: number) => `back-off ${delay}s restarting failed container=main pod=crash_default(${created.metadata.uid})`;
        const first = await until('CrashLoopBackOff', async () => { const s = (await getPod(k, 'crash'))?.status?.containerStatuses?.[0]; return s?.state?.waiting?.reason === 'CrashLoopBackOff' && s; }, 30_000);
        assert.equal(first.state.waiting.message, message(10));
        assert.equal(first.lastState.terminated.exitCode, 3);
        assert.equal(first.lastState.terminated.reason, 'Error');
        const firstAt = Date.now();
        // restarted after 10 s, crashes again: now 20 s
        const second = await until('a 20 s back-off', async () => { const s = (await getPod(k, 'crash'))?.status?.containerStatuses?.[0]; return s?.state?.waiting?.message === message(20) && s; }, 40_000);
        assert.ok(second.restartCount >= 2, JSON.stringify(second));
        assert.ok(Date.now() - firstAt >= 7000, `the first back-off lasted ${Date.now() - firstAt} ms`);
        const pod = await getPod(k, 'crash');
        assert.equal(pod.status.phase, 'Running');
        assert.equal(cond(pod, 'Ready')?.status, 'False');
      });

      await t.test('a command missing from the image fails to start (StartError, 128) and backs off like a crash, not a tight loop', async () => {
        await createPod(k, 'nostart', { command: ['/bin/nonexistent'] });
        const held = await until('CrashLoopBackOff after a StartError', async () => { const s = (await getPod(k, 'nostart'))?.status?.containerStatuses?.[0]; return s?.state?.waiting?.reason === 'CrashLoopBackOff' && s; }, 30_000);
        const last = held.lastState.terminated;
        assert.equal(last.exitCode, 128);
        assert.equal(last.reason, 'StartError');
        assert.match(last.message, /exec: "\/bin\/nonexistent": stat \/bin\/nonexistent: no such file or directory/);
        assert.ok(held.restartCount <= 2, `restarts before the back-off: ${held.restartCount}`);
        await new Promise(r => setTimeout(r, 5000));
        const later = (await getPod(k, 'nostart')).status.containerStatuses[0];
        assert.equal(later.restartCount, held.restartCount, 'held back for 10 s, not restarted every sync');
        const events = (await k.c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=nostart')).json().items;
        assert.ok(events.some((e: any) => e.reason === 'Failed' && e.type === 'Warning' && /^Error: .*stat \/bin\/nonexistent: no such file or directory/.test(e.message)), JSON.stringify(events.map((e: any) => e.message)));
        assert.ok(events.some((e: any) => e.reason === 'BackOff'), 'a BackOff event');
      });

      await t.test('a pod deleted while the agent is down is stopped and removed with its log directory once the agent is back', async () => {
        const created = await createPod(k, 'orphan', { command: forever }, { terminationGracePeriodSeconds: 1 });
        await until('orphan Running', async () => (await getPod(k, 'orphan'))?.status?.containerStatuses?.[0]?.state?.running);
        const logDir = join(k.logsDir, `default_orphan_${created.metadata.uid}`);
        assert.ok(existsSync(logDir), 'the pod has a log directory');
        await k.restartAgent(async () => {
          // removed at once from the API, as `kubectl delete --force --grace-period=0` does
          const r = await k.c.request('DELETE', '/api/v1/namespaces/default/pods/orphan', { body: JSON.stringify({ gracePeriodSeconds: 0 }), headers: { 'content-type': 'application/json' } });
          assert.equal(r.status, 200, r.body);
        });
        await until('the orphan gone from the runtime', async () => (await k.containersOf('orphan')).length === 0, 30_000);
        await until('its log directory gone', async () => !existsSync(logDir), 10_000);
      });

      await t.test('a delete sends SIGTERM and waits the grace period: a trap ends it at once; PID 1 without one (sh, sleep) ignores it and is killed at the end', async () => {
        await createPod(k, 'graceful', { command: ['sh', '-c', 'trap "echo got TERM; exit 0" TERM; while true; do sleep 0.2; done'] }, { terminationGracePeriodSeconds: 30 });
        await createPod(k, 'stubborn', { command: ['sh', '-c', 'trap "echo ignored" TERM; while true; do sleep 0.2; done'] }, { terminationGracePeriodSeconds: 3 });
        await createPod(k, 'notrap', { command: forever }, { terminationGracePeriodSeconds: 3 });
        await createPod(k, 'sleeper', { command: ['sleep', '3600'] }, { terminationGracePeriodSeconds: 3 });
        const names = ['graceful', 'stubborn', 'notrap', 'sleeper'];
        for (const name of names) await until(`${name} Running`, async () => (await getPod(k, name))?.status?.containerStatuses?.[0]?.state?.running);
        const timed = async (name: string) => {
          const started = Date.now();
          const r = await k.c.request('DELETE', `/api/v1/namespaces/default/pods/${name}`);
          assert.equal(r.status, 200, r.body);
          await until(`${name} gone`, async () => !(await getPod(k, name)), 40_000, 100);
          return Date.now() - started;
        };
        const [graceful, ...held] = await Promise.all(names.map(timed));
        assert.ok(graceful! < 10_000, `the TERM trap ended it at once, not at 30 s (${graceful} ms)`);
        for (const [i, ms] of held.entries()) {
          assert.ok(ms >= 2500, `${names[i + 1]}: SIGTERM left it running until its 3 s grace period ran out (${ms} ms)`);
          assert.ok(ms < 15_000, `${names[i + 1]}: then it was killed (${ms} ms)`);
        }
        for (const name of names) assert.deepEqual(await k.containersOf(name), [], `${name} is gone from the runtime`);
      });
    });
  }
});
