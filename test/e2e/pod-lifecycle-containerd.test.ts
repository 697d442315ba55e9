// Container lifecycle on a real runtime (containerd): a sidecar's startup probe holding back the
// init containers after it, grace periods end to end (preStop, SIGTERM, SIGKILL at the deadline
// kubectl asked for), OOMKilled under a memory limit and the limits in the container's cgroup,
// CrashLoopBackOff growing 10 s → 20 s → 40 s, and every probe kind against real containers:
// exec startup, httpGet with headers, tcpSocket, and gRPC health checks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { busyboxImage as image, busyboxPod as pod, condition, createPod, getPod, podLog, startContainerdCluster } from './support/containerd-cluster.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { until } from './support/until.ts';

/** a grpc.health.v1 server whose answer the test sets: 1 SERVING, 2 NOT_SERVING */
async function healthServer(): Promise<{ port: number; set(status: number): void; stop(): void }> {
  let status = 1;
  const def: ServiceDefinition = {
    Check: {
      path: '/grpc.health.v1.Health/Check', requestStream: false, responseStream: false,
      requestSerialize: (x: Buffer) => x, requestDeserialize: (b: Buffer) => b,
      responseSerialize: (n: number) => Buffer.from([0x08, n]), responseDeserialize: (b: Buffer) => b[1] ?? 0,
    },
  };
  const server = new Server();
  server.addService(def, { Check: (_call: unknown, cb: (err: null, n: number) => void) => cb(null, status) });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('0.0.0.0:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  return { port, set: s => { status = s; }, stop: () => server.forceShutdown() };
}

test('container lifecycle on containerd: sidecars, grace periods, OOM, back-off, probes', { concurrency: true }, async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const { c, node, orch, runtime } = await startContainerdCluster(t, 'lifecycle');
  const out = await mkdtemp(join(tmpdir(), 'orch-lifecycle-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  const outVolume = (name: string) => ({ volumes: [{ name: 'out', hostPath: { path: join(out, name), type: 'DirectoryOrCreate' } }] });
  const outMount = { volumeMounts: [{ name: 'out', mountPath: '/out' }] };
  const gone = (name: string, ms = 30_000) => until(`${name} gone`, async () => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}`)).status === 404, ms);

  // Three lanes side by side, each case on pods of its own: the back-off timers (10 s, 20 s, 40 s)
  // and the failing pods' waits would otherwise leave the node idle for most of a minute.
  const backOff = (async () => {
    await t.test('CrashLoopBackOff grows: restarts 10 s, then 20 s apart, and the waiting message says 10s, 20s, 40s', async () => {
      assert.equal((await createPod(c, pod('crashy', node, { command: ['sh', '-c', 'exit 2'] }))).status, 201);
      const messages = new Set<string>();
      const restartsAt = new Map<number, number>();
      await until('back-off 40s', async () => {
        const cs = (await getPod(c, 'crashy'))?.status?.containerStatuses?.[0];
        if (!cs) return false;
        if (!restartsAt.has(cs.restartCount)) restartsAt.set(cs.restartCount, Date.now());
        const w = cs.state?.waiting;
        if (w?.reason === 'CrashLoopBackOff') messages.add(w.message.replace(/ restarting.*/, ''));
        return messages.has('back-off 40s');
      }, 70_000, 250);
      assert.deepEqual([...messages], ['back-off 10s', 'back-off 20s', 'back-off 40s']);
      const gap = (n: number) => (restartsAt.get(n + 1)! - restartsAt.get(n)!) / 1000;
      assert.ok(gap(1) > 8 && gap(1) < 14, `second restart ~10 s after the first: ${gap(1)}`);
      assert.ok(gap(2) > 18 && gap(2) < 25, `third ~20 s after the second: ${gap(2)}`);
      const events = (await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=crashy')).json().items;
      const backoff = events.find((e: any) => e.reason === 'BackOff');
      assert.match(backoff.message, /^Back-off restarting failed container main in pod crashy_default\(/);
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/crashy?gracePeriodSeconds=0')).status, 200);
    });
  })();

  const failures = (async () => {
    await t.test('image problems on containerd: ErrImagePull with the runtime\'s error, then ImagePullBackOff naming it; ErrImageNeverPull', async () => {
      const missing = 'registry.invalid/none:1';
      assert.equal((await createPod(c, pod('nopull', node, { image: missing, command: ['true'] }))).status, 201);
      assert.equal((await createPod(c, pod('neverpull', node, { image: 'registry.invalid/absent:2', imagePullPolicy: 'Never', command: ['true'] }))).status, 201);
      const waiting = async (name: string) => (await getPod(c, name))?.status?.containerStatuses?.[0]?.state?.waiting;
      const first = await until('ErrImagePull', async () => { const w = await waiting('nopull'); return w?.reason === 'ErrImagePull' && w; });
      assert.match(first.message, /^rpc error: code = \w+ desc = failed to pull and unpack image "registry\.invalid\/none:1": /);
      const later = await until('ImagePullBackOff', async () => { const w = await waiting('nopull'); return w?.reason === 'ImagePullBackOff' && w; }, 10_000);
      assert.equal(later.message, `Back-off pulling image "${missing}": ErrImagePull: ${first.message}`);
      const never = await until('ErrImageNeverPull', async () => { const w = await waiting('neverpull'); return w?.reason === 'ErrImageNeverPull' && w; });
      assert.equal(never.message, 'Container image "registry.invalid/absent:2" is not present with pull policy of Never');
      for (const n of ['nopull', 'neverpull']) assert.equal((await c.request('DELETE', `/api/v1/namespaces/default/pods/${n}?gracePeriodSeconds=0`)).status, 200);
    });

    await t.test('a command that cannot run: RunContainerError with the runtime\'s words, then the StartError containerd records (exit 128) and back-off', async () => {
      assert.equal((await createPod(c, pod('cannot-run', node, { command: ['/no/such/binary'] }))).status, 201);
      const seen = new Set<string>();
      let last: unknown;
      const cs = await until('StartError in lastState and CrashLoopBackOff', async () => {
        const s = (await getPod(c, 'cannot-run'))?.status?.containerStatuses?.[0];
        last = s;
        if (s?.state?.waiting) seen.add(`${s.state.waiting.reason}: ${s.state.waiting.message ?? ''}`);
        return s?.state?.waiting?.reason === 'CrashLoopBackOff' && s.lastState?.terminated && s;
      }, 40_000, 100).catch(err => { throw new Error(`${err.message}; last status ${JSON.stringify(last)}; seen ${[...seen].join(' | ')}`); });
      assert.deepEqual([cs.lastState.terminated.reason, cs.lastState.terminated.exitCode, cs.lastState.terminated.startedAt], ['StartError', 128, '1970-01-01T00:00:00Z']);
      assert.match(cs.lastState.terminated.message, /no such file or directory/);
      assert.ok([...seen].some(w => /^RunContainerError: rpc error: code = Unknown desc = failed to create containerd task: /.test(w)), [...seen].join('\n'));
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/cannot-run?gracePeriodSeconds=0')).status, 200);
    });

    await t.test('probes on real containers: exec startup before liveness, httpGet with headers, tcpSocket, gRPC', async () => {
      const grpc = await healthServer();
      t.after(() => grpc.stop());
      // the bridge's gateway (test/support/containerd.ts picks the subnet): the host, seen from a pod
      const gateway = `10.${88 + (process.pid % 50)}.0.1`;
      const cgi = '#!/bin/sh\\necho "ua=$HTTP_USER_AGENT probe=$HTTP_X_PROBE" > /proc/1/fd/1\\nif [ "$HTTP_X_PROBE" = yes ]; then echo "Content-Type: text/plain"; echo; echo ok; else echo "Status: 500 Nope"; echo; fi\\n';
      const probes = pod('probed', node, {
        command: ['sh', '-c', [
          'mkdir -p /www/cgi-bin', `printf '${cgi}' > /www/cgi-bin/check`, '/bin/busybox chmod +x /www/cgi-bin/check', 'httpd -p 8080 -h /www',
          'sleep 3', 'touch /tmp/started', 'while true; do sleep 1; done',
        ].join('; ')],
        ports: [{ name: 'http', containerPort: 8080 }],
        startupProbe: { exec: { command: ['test', '-e', '/tmp/started'] }, periodSeconds: 1, failureThreshold: 30 },
        // would fail at once before the start: a liveness probe run early restarts the container
        livenessProbe: { exec: { command: ['test', '-e', '/tmp/started'] }, periodSeconds: 1, failureThreshold: 1 },
        readinessProbe: { httpGet: { path: '/cgi-bin/check', port: 'http', httpHeaders: [{ name: 'X-Probe', value: 'yes' }] }, periodSeconds: 1 },
      });
      const otherProbes = [
        { name: 'tcp', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', 'sleep 2; nc -ll -p 9100 -e true'], readinessProbe: { tcpSocket: { port: 9100 }, periodSeconds: 1 } },
        { name: 'grpc', image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', `nc -ll -p 50051 -e nc ${gateway} ${grpc.port}`], readinessProbe: { grpc: { port: 50051 }, periodSeconds: 1 } },
      ];
      (probes.spec.containers as unknown[]).push(...otherProbes);
      assert.equal((await createPod(c, probes)).status, 201);
      const early = await until('probed running, not started', async () => {
        const p = await getPod(c, 'probed');
        const m = p?.status?.containerStatuses?.find((x: any) => x.name === 'main');
        return m?.state?.running && m.started === false && p;
      });
      assert.equal(condition(early, 'Ready').status, 'False');
      const ready = await until('probed Ready', async () => { const p = await getPod(c, 'probed'); return condition(p, 'Ready')?.status === 'True' && p; }, 40_000);
      for (const cs of ready.status.containerStatuses) assert.deepEqual([cs.name, cs.ready, cs.restartCount], [cs.name, true, 0]);
      assert.equal(ready.status.containerStatuses.find((x: any) => x.name === 'main').started, true);
      assert.match(await podLog(c, 'probed', 'main'), /^ua=kube-probe\/1\.\d+ probe=yes$/m);

      // the gRPC service stops serving: that container and the pod turn unready
      grpc.set(2);
      const unready = await until('probed unready', async () => { const p = await getPod(c, 'probed'); return condition(p, 'Ready')?.status === 'False' && p; }, 20_000);
      assert.equal(condition(unready, 'Ready').message, 'containers with unready status: [grpc]');
      const events = (await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=probed')).json().items;
      assert.ok(events.some((e: any) => e.reason === 'Unhealthy' && e.message === 'Readiness probe failed: service unhealthy (responded with "NOT_SERVING")'), JSON.stringify(events.map((e: any) => e.message)));
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/probed?gracePeriodSeconds=0')).status, 200);
    });

    await t.test('a failing httpGet liveness probe (no header, so 500) restarts the container with the kubelet\'s event', async () => {
      const cgi = '#!/bin/sh\\necho "Status: 500 Nope"; echo\\n';
      const body = pod('unlive', node, {
        command: ['sh', '-c', `mkdir -p /www/cgi-bin; printf '${cgi}' > /www/cgi-bin/check; /bin/busybox chmod +x /www/cgi-bin/check; httpd -f -p 8080 -h /www`],
        livenessProbe: { httpGet: { path: '/cgi-bin/check', port: 8080 }, periodSeconds: 1, failureThreshold: 2 },
      });
      assert.equal((await createPod(c, body)).status, 201);
      await until('unlive restarted', async () => ((await getPod(c, 'unlive'))?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 30_000);
      const events = (await c.request('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=unlive')).json().items;
      assert.ok(events.some((e: any) => e.reason === 'Unhealthy' && e.message === 'Liveness probe failed: HTTP probe failed with statuscode: 500'), JSON.stringify(events.map((e: any) => e.message)));
      assert.ok(events.some((e: any) => e.reason === 'Killing' && e.message === 'Container main failed liveness probe, will be restarted'));
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/unlive?gracePeriodSeconds=0')).status, 200);
    });

    await t.test('in-place resize through pods/resize: CPU and memory updated in the running container\'s cgroup, or a restart where resizePolicy asks', async () => {
      const body = pod('resizable', node, { command: ['sleep', '3600'], resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '200m', memory: '64Mi' } } });
      (body.spec.containers as unknown[]).push({ name: 'restarts', image, imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600'], resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '200m', memory: '64Mi' } }, resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] });
      assert.equal((await createPod(c, body)).status, 201);
      const before = await until('resizable Running', async () => { const p = await getPod(c, 'resizable'); return p?.status?.containerStatuses?.every((x: any) => x.state.running) && p; });
      const idOf = (p: any, name: string) => p.status.containerStatuses.find((x: any) => x.name === name).containerID.replace('containerd://', '');
      const resized = { requests: { cpu: '150m', memory: '48Mi' }, limits: { cpu: '300m', memory: '96Mi' } };
      const patch = { spec: { containers: [{ name: 'main', resources: resized }, { name: 'restarts', resources: resized }] } };
      const r = await c.request('PATCH', '/api/v1/namespaces/default/pods/resizable/resize', { body: JSON.stringify(patch), headers: { 'content-type': 'application/strategic-merge-patch+json' } });
      assert.equal(r.status, 200, r.body);
      const after = await until('the resize applied', async () => {
        const p = await getPod(c, 'resizable');
        const m = p?.status?.containerStatuses?.find((x: any) => x.name === 'main');
        const rs = p?.status?.containerStatuses?.find((x: any) => x.name === 'restarts');
        return m?.resources?.limits?.cpu === '300m' && rs?.restartCount === 1 && rs.state.running && p;
      }, 30_000);
      const main = after.status.containerStatuses.find((x: any) => x.name === 'main');
      assert.equal(idOf(after, 'main'), idOf(before, 'main'), 'resized in place, not replaced');
      assert.equal(main.restartCount, 0);
      assert.deepEqual(main.allocatedResources, { cpu: '150m', memory: '48Mi' });
      assert.deepEqual(main.resources, resized);
      // the running container's cgroup has the new values; so does the pod's
      const tasks = await runtime.ctr(['task', 'ls']);
      const pid = tasks.split('\n').find(l => l.startsWith(idOf(after, 'main')))?.split(/\s+/)[1];
      const cg = Object.fromEntries((await readFile(`/proc/${pid}/cgroup`, 'utf8')).trim().split('\n').map(l => l.split(':')).map(([, ctl, path]) => [ctl, path]));
      const read = (ctl: string, path: string, file: string) => readFile(`/sys/fs/cgroup/${ctl}${path}/${file}`, 'utf8').then(s => Number(s.trim()));
      assert.deepEqual([await read('cpu', cg.cpu, 'cpu.shares'), await read('cpu', cg.cpu, 'cpu.cfs_quota_us'), await read('memory', cg.memory, 'memory.limit_in_bytes')], [153, 30_000, 96 * 2 ** 20]);
      const podCgroup = `/kubepods/burstable/pod${after.metadata.uid}`;
      assert.deepEqual([await read('cpu', podCgroup, 'cpu.cfs_quota_us'), await read('memory', podCgroup, 'memory.limit_in_bytes')], [60_000, 192 * 2 ** 20]);
      assert.equal(after.metadata.generation, before.metadata.generation + 1);
      // kubectl 1.33 speaks the subresource too
      const k = kubectls()[0]!;
      const kp = await kubectl(k.path, orch.kubeconfig, ['patch', 'pod', 'resizable', '--subresource', 'resize', '--type', 'merge', '-p', JSON.stringify({ spec: { containers: [{ name: 'main', resources: { requests: { cpu: '100m', memory: '48Mi' }, limits: { cpu: '300m', memory: '96Mi' } } }] } })]);
      if (!/unknown flag/.test(kp.stderr)) assert.equal(kp.code, 0, kp.stderr);
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/resizable?gracePeriodSeconds=0')).status, 200);
    });
  })();

  await t.test('a sidecar with a startup probe holds back the next init container until it passes; a finished pod stops its sidecar and Succeeds', async () => {
    const body = pod('sidecar-start', node, { command: ['sh', '-c', 'echo main >> /out/order'], ...outMount }, {
      restartPolicy: 'Never',
      ...outVolume('sidecar-start'),
      initContainers: [
        { name: 'side', image, imagePullPolicy: 'IfNotPresent', restartPolicy: 'Always', ...outMount, command: ['sh', '-c', 'sleep 2; echo side-up >> /out/order; touch /tmp/up; while true; do sleep 0.2; done'], startupProbe: { exec: { command: ['test', '-e', '/tmp/up'] }, periodSeconds: 1, failureThreshold: 30 } },
        { name: 'second', image, imagePullPolicy: 'IfNotPresent', ...outMount, command: ['sh', '-c', 'echo second >> /out/order'] },
      ],
    });
    assert.equal((await createPod(c, body)).status, 201);
    const done = await until('sidecar-start Succeeded', async () => { const p = await getPod(c, 'sidecar-start'); return p?.status?.phase === 'Succeeded' && p; }, 40_000);
    assert.equal(await readFile(join(out, 'sidecar-start', 'order'), 'utf8'), 'side-up\nsecond\nmain\n');
    assert.equal(condition(done, 'Initialized').status, 'True');
    assert.equal(done.status.containerStatuses[0].state.terminated.reason, 'Completed');
    // the sidecar was stopped once the main container had finished
    assert.ok(done.status.initContainerStatuses[0].state.terminated, JSON.stringify(done.status.initContainerStatuses[0]));
  });

  await t.test('kubectl delete --grace-period: preStop first, then SIGTERM, then SIGKILL at that deadline, not the pod\'s', async () => {
    const body = pod('slow-stop', node, {
      ...outMount,
      // the TERM trap notes the signal and carries on: only the kill at the deadline ends it
      command: ['sh', '-c', 'trap "echo TERM >> /out/order" TERM; while true; do sleep 0.2; done'],
      lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo prestop >> /out/order'] } } },
    }, { terminationGracePeriodSeconds: 60, ...outVolume('slow-stop') });
    assert.equal((await createPod(c, body)).status, 201);
    await until('slow-stop Running', async () => (await getPod(c, 'slow-stop'))?.status?.phase === 'Running');
    const k = kubectls()[0]!;
    const started = Date.now();
    const del = await kubectl(k.path, orch.kubeconfig, ['delete', 'pod', 'slow-stop', '--grace-period=4', '--wait=false']);
    assert.equal(del.code, 0, del.stderr);
    await gone('slow-stop');
    const took = Date.now() - started;
    assert.ok(took >= 3500 && took < 15_000, `stopped at the 4 s deadline, not the pod's 60 s: ${took} ms`);
    assert.equal(await readFile(join(out, 'slow-stop', 'order'), 'utf8'), 'prestop\nTERM\n');
  });

  await t.test('a second delete with a shorter grace period cuts a termination under way short', async () => {
    const body = pod('long-stop', node, { command: ['sh', '-c', 'trap "" TERM; while true; do sleep 0.2; done'] }, { terminationGracePeriodSeconds: 60 });
    assert.equal((await createPod(c, body)).status, 201);
    await until('long-stop Running', async () => (await getPod(c, 'long-stop'))?.status?.phase === 'Running');
    const k = kubectls()[0]!;
    const started = Date.now();
    assert.equal((await kubectl(k.path, orch.kubeconfig, ['delete', 'pod', 'long-stop', '--wait=false'])).code, 0);
    await new Promise(r => setTimeout(r, 1500));
    const second = await kubectl(k.path, orch.kubeconfig, ['delete', 'pod', 'long-stop', '--grace-period=2', '--wait=false']);
    assert.equal(second.code, 0, second.stderr);
    await gone('long-stop');
    const took = Date.now() - started;
    assert.ok(took < 12_000, `killed about 2 s after the second delete, not at 60 s: ${took} ms`);
  });

  await t.test('a container over its memory limit is OOMKilled; its CPU and memory settings are in its cgroup', async () => {
    const oom = pod('oom', node, { command: ['/bin/busybox', 'tail', '/dev/zero'], resources: { limits: { memory: '24Mi' } } }, { restartPolicy: 'Never' });
    const sized = pod('sized', node, { command: ['sleep', '3600'], resources: { requests: { cpu: '250m', memory: '32Mi' }, limits: { cpu: '500m', memory: '64Mi' } } });
    for (const b of [oom, sized]) assert.equal((await createPod(c, b)).status, 201);
    const failed = await until('oom Failed', async () => { const p = await getPod(c, 'oom'); return p?.status?.phase === 'Failed' && p; }, 60_000);
    const term = failed.status.containerStatuses[0].state.terminated;
    assert.deepEqual([term.reason, term.exitCode], ['OOMKilled', 137]);

    const running = await until('sized Running', async () => { const p = await getPod(c, 'sized'); return p?.status?.phase === 'Running' && p; });
    const id = running.status.containerStatuses[0].containerID.replace('containerd://', '');
    const tasks = await runtime.ctr(['task', 'ls']);
    const pid = tasks.split('\n').find(l => l.startsWith(id))?.split(/\s+/)[1];
    assert.ok(pid, tasks);
    const cgroups = Object.fromEntries((await readFile(`/proc/${pid}/cgroup`, 'utf8')).trim().split('\n').map(l => l.split(':')).map(([, ctl, path]) => [ctl, path]));
    const read = (ctl: string, file: string) => readFile(`/sys/fs/cgroup/${ctl}${cgroups[ctl]}/${file}`, 'utf8').then(s => Number(s.trim()));
    assert.equal(await read('cpu', 'cpu.shares'), 256);
    assert.equal(await read('cpu', 'cpu.cfs_quota_us'), 50_000);
    assert.equal(await read('cpu', 'cpu.cfs_period_us'), 100_000);
    assert.equal(await read('memory', 'memory.limit_in_bytes'), 64 * 1024 * 1024);
    // the container sits in its pod's cgroup, under its QoS class's, and the pod's cgroup is limited too
    const podCgroup = `/kubepods/burstable/pod${running.metadata.uid}`;
    assert.equal(cgroups.cpu, `${podCgroup}/${id}`);
    assert.equal(cgroups.memory, `${podCgroup}/${id}`);
    const readPod = (ctl: string, file: string) => readFile(`/sys/fs/cgroup/${ctl}${podCgroup}/${file}`, 'utf8').then(s => Number(s.trim()));
    assert.deepEqual([await readPod('cpu', 'cpu.shares'), await readPod('cpu', 'cpu.cfs_quota_us'), await readPod('memory', 'memory.limit_in_bytes')], [256, 50_000, 64 * 1024 * 1024]);
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/sized?gracePeriodSeconds=0')).status, 200);
    await gone('sized');
    // removed with the pod
    await until('the pod cgroup removed', async () => !existsSync(`/sys/fs/cgroup/memory${podCgroup}`) && !existsSync(`/sys/fs/cgroup/cpu${podCgroup}`), 10_000);
  });

  await Promise.all([backOff, failures]);
});
