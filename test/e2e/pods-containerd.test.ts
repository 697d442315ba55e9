// Pods on a real runtime: `orch server`, `orch agent` and a private containerd. A pod bound to
// the node runs, gets an IP, becomes Ready through its readiness probe, restarts as its policy
// says with crash-loop back-off, finishes, is stopped gracefully on delete and removed from the
// API; a static pod manifest starts a pod the API shows as a mirror pod; pods/proxy reaches
// httpd in a pod; kubectl drain waits on a PodDisruptionBudget, then evicts.

import { test } from 'node:test';
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerdSkipReason, startContainerd, type Containerd } from '../support/containerd.ts';
import { busyboxSkipReason, importBusyboxImage } from '../support/oci-image.ts';
import { startAgentProcess, type AgentProcess } from './support/agent-process.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';
import { until } from './support/until.ts';
import { skipForMissing } from '../support/requires.ts';
import { connectCri } from '../../src/agent/cri/client.ts';

const image = 'docker.io/library/busybox:1.36';

interface Cluster { orch: OrchProcess; agent: AgentProcess; runtime: Containerd; c: RawClient; node: string; staticDir: string; logsDir: string; restartAgent(): Promise<AgentProcess> }

async function startCluster(t: { after(fn: () => unknown): void }): Promise<Cluster> {
  // torn down in reverse: the agent first (so nothing restarts containers), the runtime last
  const teardown: Array<() => Promise<unknown>> = [];
  t.after(async () => { for (const fn of teardown.reverse()) await fn().catch(() => undefined); });
  const runtime = await startContainerd();
  teardown.push(() => runtime.stop());
  await importBusyboxImage(runtime, [image, 'registry.k8s.io/pause:3.9'], ['sleep', '2147483647']);
  const orch = await startOrch({ args: [] });
  teardown.push(async () => { await orch.stop(); await orch.cleanup(); });
  const dir = await mkdtemp(join(tmpdir(), 'orch-pods-'));
  teardown.push(() => rm(dir, { recursive: true, force: true }));
  const staticDir = join(dir, 'manifests');
  const logsDir = join(dir, 'logs');
  await mkdir(staticDir);
  const node = `pods-node-${process.pid}`;
  const agentOptions = {
    kubeconfig: orch.kubeconfig,
    args: ['--hostname-override', node, '--node-ip', '127.0.0.1', '--container-runtime-endpoint', runtime.endpoint],
    config: { nodeStatusUpdateFrequency: '1s', staticPodPath: staticDir, podLogsDir: logsDir, fileCheckFrequency: '1s', syncFrequency: '2s' },
  };
  let agent = await startAgentProcess(agentOptions);
  teardown.push(async () => { await agent.stop(); await agent.cleanup(); });
  const c = rawClient(orch.kubeconfig);
  await until('the node', async () => (await c.request('GET', `/api/v1/nodes/${node}`)).status === 200);
  // kill -9 and start again on the same root directory and port
  const restartAgent = async () => {
    await agent.kill();
    agent = await startAgentProcess({ ...agentOptions, rootDir: agent.rootDir, port: agent.port });
    return agent;
  };
  return { orch, agent, runtime, c, node, staticDir, logsDir, restartAgent };
}

const create = (c: RawClient, obj: unknown) => c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
const getPod = async (c: RawClient, name: string) => { const r = await c.request('GET', `/api/v1/namespaces/default/pods/${name}`); return r.status === 200 ? r.json() : undefined; };
const cond = (pod: any, type: string) => pod?.status?.conditions?.find((x: any) => x.type === type)?.status;

function pod(name: string, node: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: node, terminationGracePeriodSeconds: 5, containers: [{ name: 'main', image, imagePullPolicy: 'IfNotPresent', ...container }], ...spec } };
}

test('pods on containerd: run, probe, restart, finish, delete gracefully; static pods mirrored', { concurrency: true }, async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const { c, node, runtime, staticDir, orch, agent, restartAgent, logsDir } = await startCluster(t);

  await t.test('a pod runs with an IP and turns Ready through its readiness probe', async () => {
    const body = pod('web', node, {
      env: [{ name: 'GREETING', value: 'hello' }, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      command: ['sh', '-c', 'echo $GREETING from $POD_NAME; sleep 2; touch /tmp/ready; i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.5; done'],
      readinessProbe: { exec: { command: ['test', '-e', '/tmp/ready'] }, periodSeconds: 1 },
    });
    assert.equal((await create(c, body)).status, 201);
    const running = await until('web Running', async () => { const p = await getPod(c, 'web'); return p?.status?.phase === 'Running' && p; });
    assert.match(running.status.podIP, /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(running.status.hostIP, '127.0.0.1');
    assert.ok(running.status.startTime);
    const cs = running.status.containerStatuses[0];
    assert.equal(cs.name, 'main');
    assert.ok(cs.state.running?.startedAt, JSON.stringify(cs));
    assert.match(cs.containerID, /^containerd:\/\/[0-9a-f]{64}$/);
    assert.equal(cs.image, image);
    const ready = await until('web Ready', async () => { const p = await getPod(c, 'web'); return cond(p, 'Ready') === 'True' && p; });
    assert.equal(cond(ready, 'ContainersReady'), 'True');
    assert.equal(cond(ready, 'Initialized'), 'True');
    assert.equal(cond(ready, 'PodReadyToStartContainers'), 'True');
    assert.equal(cond(ready, 'PodScheduled'), 'True');
    assert.equal(ready.status.containerStatuses[0].ready, true);
    // the resource checkpoints of appendix B name the pod once it runs
    for (const file of ['allocated_pods_state', 'actuated_pods_state']) {
      // the kubelet's layout: the entries as a JSON string beside their checksum
      const state = await until(file, async () => { const d = JSON.parse(JSON.parse(await readFile(join(agent.rootDir, file), 'utf8')).data); return d.entries?.[ready.metadata.uid] && d; }, 5000);
      assert.ok(state.entries[ready.metadata.uid].ContainerResources.main, file);
    }
    for (const k of kubectls()) {
      const get = await kubectl(k.path, orch.kubeconfig, ['get', 'pod', 'web', '-o', 'wide']);
      assert.equal(get.code, 0, get.stderr);
      assert.match(get.stdout, new RegExp(`^web\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+${running.status.podIP.replace(/\./g, '\\.')}\\s+${node}`, 'm'), `${k.label}: ${get.stdout}`);
    }
  });

  await t.test('kubectl run: the scheduler places the pod on the node and it runs', async () => {
    const k = kubectls()[0]!;
    const run = await kubectl(k.path, orch.kubeconfig, ['run', 'placed', `--image=${image}`, '--image-pull-policy=IfNotPresent', '--command', '--', 'sh', '-c', 'echo placed by the scheduler; sleep 3600']);
    assert.equal(run.code, 0, run.stderr);
    const p = await until('placed Running', async () => { const p = await getPod(c, 'placed'); return p?.status?.phase === 'Running' && p; });
    assert.equal(p.spec.nodeName, node);
    const logs = await until('its log', async () => { const r = await kubectl(k.path, orch.kubeconfig, ['logs', 'placed']); return r.stdout.includes('placed by the scheduler') && r; });
    assert.equal(logs.code, 0);
  });

  await t.test('pods/proxy reaches busybox httpd in the pod at its IP (the first declared port, or the one named)', async () => {
    const body = pod('httpd', node, {
      command: ['sh', '-c', 'mkdir -p /www && echo hello from httpd > /www/index.html && exec httpd -f -p 8080 -h /www'],
      ports: [{ containerPort: 8080 }],
    });
    assert.equal((await create(c, body)).status, 201);
    await until('httpd Running', async () => (await getPod(c, 'httpd'))?.status?.phase === 'Running');
    const proxied = await until('httpd answers through pods/proxy', async () => { const r = await c.request('GET', '/api/v1/namespaces/default/pods/httpd/proxy/index.html'); return r.status === 200 && r; }, 15_000);
    assert.equal(proxied.body, 'hello from httpd\n');
    for (const k of kubectls()) {
      const r = await kubectl(k.path, orch.kubeconfig, ['get', '--raw', '/api/v1/namespaces/default/pods/http:httpd:8080/proxy/']);
      assert.equal(r.code, 0, `${k.label}: ${r.stderr}`);
      assert.equal(r.stdout, 'hello from httpd\n');
    }
    const closed = await c.request('GET', '/api/v1/namespaces/default/pods/httpd:8081/proxy/');
    assert.equal(closed.status, 503);
    assert.match(closed.json().message, /^error trying to reach service: dial tcp [\d.]+:8081: connect: connection refused$/);
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/httpd?gracePeriodSeconds=0')).status, 200);
  });

  await t.test('an agent killed and started again adopts its running pods without restarting them', async () => {
    const before = await getPod(c, 'web');
    await restartAgent();
    // the new agent has synced the pod: still Running, same container, no restart
    await new Promise(r => setTimeout(r, 3000));
    const after = await getPod(c, 'web');
    assert.equal(after.status.phase, 'Running');
    assert.equal(after.status.containerStatuses[0].containerID, before.status.containerStatuses[0].containerID);
    assert.equal(after.status.containerStatuses[0].restartCount, 0);
    assert.equal(after.status.podIP, before.status.podIP);
    assert.equal(after.status.startTime, before.status.startTime);
  });

  await t.test('init containers run first; a finished OnFailure pod Succeeds; a failed Never pod Fails', async () => {
    const ok = pod('done', node, { command: ['sh', '-c', 'test -e /work/init-was-here && echo done'], volumeMounts: [{ name: 'w', mountPath: '/work' }] }, {
      restartPolicy: 'OnFailure',
      volumes: [{ name: 'w', emptyDir: {} }],
      initContainers: [{ name: 'init', image, imagePullPolicy: 'IfNotPresent', command: ['touch', '/work/init-was-here'], volumeMounts: [{ name: 'w', mountPath: '/work' }] }],
    });
    const bad = pod('fails', node, { command: ['sh', '-c', 'exit 7'] }, { restartPolicy: 'Never' });
    for (const b of [ok, bad]) assert.equal((await create(c, b)).status, 201);
    const done = await until('done Succeeded', async () => { const p = await getPod(c, 'done'); return p?.status?.phase === 'Succeeded' && p; });
    assert.equal(done.status.initContainerStatuses[0].state.terminated.exitCode, 0);
    assert.equal(done.status.containerStatuses[0].state.terminated.reason, 'Completed');
    assert.equal(cond(done, 'Ready'), 'False');
    const failed = await until('fails Failed', async () => { const p = await getPod(c, 'fails'); return p?.status?.phase === 'Failed' && p; });
    assert.equal(failed.status.containerStatuses[0].state.terminated.exitCode, 7);
    assert.equal(failed.status.containerStatuses[0].restartCount, 0);
  });

  await t.test('termination messages: from the terminationMessagePath file, or the log\'s tail with FallbackToLogsOnError', async () => {
    const fromFile = pod('msg-file', node, { command: ['sh', '-c', 'printf "all done" > /dev/termination-log; exit 3'] }, { restartPolicy: 'Never' });
    const fromLogs = pod('msg-logs', node, { command: ['sh', '-c', 'echo first; sleep 0.3; echo oops >&2; exit 1'], terminationMessagePolicy: 'FallbackToLogsOnError' }, { restartPolicy: 'Never' });
    const custom = pod('msg-path', node, { command: ['sh', '-c', 'printf "custom" > /tmp/why; exit 0'], terminationMessagePath: '/tmp/why' }, { restartPolicy: 'Never' });
    for (const b of [fromFile, fromLogs, custom]) assert.equal((await create(c, b)).status, 201);
    const terminated = async (name: string) => (await until(`${name} finished`, async () => { const p = await getPod(c, name); return (p?.status?.phase === 'Failed' || p?.status?.phase === 'Succeeded') && p; })).status.containerStatuses[0].state.terminated;
    assert.deepEqual(await terminated('msg-file').then(t => [t.exitCode, t.reason, t.message]), [3, 'Error', 'all done']);
    assert.deepEqual(await terminated('msg-logs').then(t => [t.exitCode, t.message]), [1, 'first\noops\n']);
    assert.deepEqual(await terminated('msg-path').then(t => [t.reason, t.message]), ['Completed', 'custom']);
  });

  await t.test('a finished pod stays Succeeded or Failed when its sandbox is gone and across an agent restart', async () => {
    // the runtime loses the pods' sandboxes (as after a node reboot or a runtime's own clean-up)
    const cri = await connectCri(runtime.endpoint, { timeoutMs: 30_000 });
    try {
      for (const s of (await cri.listPodSandbox({})).items) {
        if (s.metadata?.name !== 'done' && s.metadata?.name !== 'fails') continue;
        await cri.stopPodSandbox({ podSandboxId: s.id });
        await cri.removePodSandbox({ podSandboxId: s.id });
      }
    } finally {
      cri.close();
    }
    await restartAgent();
    await new Promise(r => setTimeout(r, 4000));
    const done = await getPod(c, 'done');
    const failed = await getPod(c, 'fails');
    assert.equal(done.status.phase, 'Succeeded');
    assert.equal(done.status.containerStatuses[0].state.terminated.reason, 'Completed');
    assert.equal(failed.status.phase, 'Failed');
    assert.equal(failed.status.containerStatuses[0].state.terminated.exitCode, 7);
    // what kubectl shows, newest and oldest
    for (const k of kubectls()) {
      const out = await kubectl(k.path, orch.kubeconfig, ['get', 'pod', 'done', '-o', 'jsonpath={.status.phase} {.status.containerStatuses[0].state.terminated.reason}']);
      assert.equal(out.stdout, 'Succeeded Completed', k.path);
    }
  });

  await t.test('deleting a pod stops its container with SIGTERM and removes it from the API', async () => {
    const body = pod('graceful', node, { command: ['sh', '-c', 'trap "echo got TERM; exit 0" TERM; while true; do sleep 0.2; done'] });
    assert.equal((await create(c, body)).status, 201);
    const running = await until('graceful Running', async () => { const p = await getPod(c, 'graceful'); return p?.status?.phase === 'Running' && p; });
    const id = running.status.containerStatuses[0].containerID.replace('containerd://', '');
    const started = Date.now();
    const del = await c.request('DELETE', '/api/v1/namespaces/default/pods/graceful');
    assert.equal(del.status, 200, del.body);
    assert.ok(del.json().metadata.deletionTimestamp, 'a pod on a node is deleted gracefully');
    await until('graceful gone from the API', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/graceful')).status === 404, 20_000);
    // the trap exits at once: far sooner than the 5 s grace period a kill would wait for
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    const tasks = await runtime.ctr(['containers', 'ls', '-q']);
    assert.ok(!tasks.includes(id), 'the container is removed from the runtime');
    // and its log directory (<ns>_<name>_<uid>) from the node
    assert.deepEqual((await readdir(logsDir)).filter(d => d.startsWith('default_graceful_')), []);
  });

  // The cases from here to the drain run in three lanes side by side, each on pods of its own,
  // the agent running throughout: their waits (back-off, syncs, volume updates) overlap.
  const crashAndLogs = (async () => {
    await t.test('a crashing container restarts with back-off and shows CrashLoopBackOff', async () => {
      const body = pod('crash', node, { command: ['sh', '-c', 'echo boom; exit 3'] });
      assert.equal((await create(c, body)).status, 201);
      const looping = await until('CrashLoopBackOff', async () => {
        const p = await getPod(c, 'crash');
        const cs = p?.status?.containerStatuses?.[0];
        return cs?.state?.waiting?.reason === 'CrashLoopBackOff' && cs.restartCount >= 1 && p;
      }, 40_000);
      const cs = looping.status.containerStatuses[0];
      assert.equal(cs.lastState.terminated.exitCode, 3);
      assert.equal(cs.lastState.terminated.reason, 'Error');
      assert.match(cs.state.waiting.message, /^back-off \d+s restarting failed container=main pod=crash_default\(/);
      assert.equal(looping.status.phase, 'Running');
    });

    await t.test('kubectl logs: through the API server to the agent; --tail, --previous, -f, errors', async () => {
      for (const k of kubectls()) {
        const all = await kubectl(k.path, orch.kubeconfig, ['logs', 'web']);
        assert.equal(all.code, 0, all.stderr);
        assert.match(all.stdout, /^hello from web\ntick 1\n/, k.label);
        const tail = await kubectl(k.path, orch.kubeconfig, ['logs', 'web', '--tail=1', '--timestamps']);
        assert.match(tail.stdout, /^\d{4}-\d\d-\d\dT\S+ tick \d+\n$/, `${k.label}: ${tail.stdout}`);
        const previous = await kubectl(k.path, orch.kubeconfig, ['logs', 'crash', '--previous']);
        assert.equal(previous.stdout, 'boom\n', `${k.label}: ${previous.stderr}`);
        const bad = await kubectl(k.path, orch.kubeconfig, ['logs', 'web', '-c', 'nope']);
        assert.notEqual(bad.code, 0);
        assert.match(bad.stderr, /container nope is not valid for pod web/, k.label);
      }
      // -f follows new lines as they are written
      const follow = spawn(kubectls()[0]!.path, ['--kubeconfig', orch.kubeconfig, 'logs', '-f', 'web', '--tail=1'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      follow.stdout.on('data', d => { out += d; });
      await until('three followed lines', async () => out.split('\n').filter(l => l.startsWith('tick')).length >= 3, 15_000);
      follow.kill();
      const ticks = out.split('\n').filter(Boolean).map(l => Number(l.split(' ')[1]));
      assert.ok(ticks.every((n, i) => i === 0 || n === ticks[i - 1]! + 1), `consecutive: ${out}`);
    });

    await t.test('hooks: postStart runs after the start (a failing one is an event and a restart); preStop runs before SIGTERM on delete', async () => {
      const hostDir = await mkdtemp(join(tmpdir(), 'orch-hooks-'));
      t.after(() => rm(hostDir, { recursive: true, force: true }));
      const body = pod('hooked', node, {
        command: ['sh', '-c', 'trap "echo TERM >> /out/order; exit 0" TERM; while true; do test -e /tmp/started && echo poststart-seen; sleep 0.2; done'],
        volumeMounts: [{ name: 'out', mountPath: '/out' }],
        lifecycle: {
          postStart: { exec: { command: ['sh', '-c', 'touch /tmp/started'] } },
          preStop: { exec: { command: ['sh', '-c', 'echo prestop >> /out/order; sleep 1'] } },
        },
      }, { volumes: [{ name: 'out', hostPath: { path: hostDir, type: 'Directory' } }] });
      assert.equal((await create(c, body)).status, 201);
      await until('the postStart hook\'s file seen by the container', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/hooked/log')).body.includes('poststart-seen'));
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/hooked')).status, 200);
      await until('hooked gone', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/hooked')).status === 404, 30_000);
      assert.equal(await readFile(join(hostDir, 'order'), 'utf8'), 'prestop\nTERM\n');

      const failing = pod('bad-hook', node, { command: ['sleep', '3600'], lifecycle: { postStart: { exec: { command: ['sh', '-c', 'echo nope; exit 4'] } } } });
      assert.equal((await create(c, failing)).status, 201);
      const ev = await until('FailedPostStartHook', async () => {
        const events = (await c.request('GET', '/api/v1/namespaces/default/events')).json().items as any[];
        return events.find(e => e.reason === 'FailedPostStartHook' && e.involvedObject.name === 'bad-hook');
      });
      assert.match(ev.message, /^Exec lifecycle hook \(\[sh -c echo nope; exit 4\]\) for Container "main" in Pod "bad-hook_default\(.+\)" failed - error: /);
      await until('bad-hook restarted', async () => ((await getPod(c, 'bad-hook'))?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 30_000);
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/bad-hook?gracePeriodSeconds=0')).status, 200);
    });
  })();

  const volumes = (async () => {
    await t.test('a ConfigMap volume keeps its files across syncs and shows updates; a subPath file does not change', async () => {
      const cms = '/api/v1/namespaces/default/configmaps';
      assert.equal((await c.request('POST', cms, { body: JSON.stringify({ metadata: { name: 'live' }, data: { greeting: 'one' } }) })).status, 201);
      const body = pod('cfgpod', node, {
        command: ['sh', '-c', 'while true; do echo "live=$(cat /cfg/greeting) sub=$(cat /sub/greeting)"; sleep 0.5; done'],
        volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }, { name: 'cfg', mountPath: '/sub/greeting', subPath: 'greeting' }],
      }, { volumes: [{ name: 'cfg', configMap: { name: 'live' } }] });
      assert.equal((await create(c, body)).status, 201);
      const log = async () => (await c.request('GET', '/api/v1/namespaces/default/pods/cfgpod/log')).body;
      await until('cfgpod reads its volume', async () => (await log()).includes('live=one sub=one'));
      // several syncs later (every 2 s here) the files are still there
      await new Promise(r => setTimeout(r, 7000));
      assert.doesNotMatch(await log(), /live= /, 'the volume never went empty');
      assert.match((await log()).trim().split('\n').at(-1)!, /^live=one sub=one$/);
      const cm = (await c.request('GET', `${cms}/live`)).json();
      assert.equal((await c.request('PUT', `${cms}/live`, { body: JSON.stringify({ ...cm, data: { greeting: 'two' } }) })).status, 200);
      // the update arrives through ..data; a subPath mount keeps the file it started with, as in Kubernetes
      await until('the update inside the container', async () => (await log()).includes('live=two sub=one'), 30_000);
      assert.doesNotMatch(await log(), /live= /);
    });

    await t.test('downward API labels update in a running container; a Memory emptyDir is a tmpfs there', async () => {
      const body = pod('downward', node, {
        command: ['sh', '-c', 'while true; do echo "labels: $(cat /info/labels | tr \'\\n\' \' \')"; grep " /scratch " /proc/mounts; sleep 1; done'],
        volumeMounts: [{ name: 'info', mountPath: '/info' }, { name: 'scratch', mountPath: '/scratch' }],
      }, { volumes: [{ name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }, { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } }] });
      (body.metadata as Record<string, unknown>).labels = { stage: 'one' };
      assert.equal((await create(c, body)).status, 201);
      const logs = async () => (await c.request('GET', '/api/v1/namespaces/default/pods/downward/log')).body;
      await until('the labels file in the container', async () => (await logs()).includes('labels: stage="one"'));
      assert.match(await logs(), /^tmpfs \/scratch tmpfs .*size=16384k/m);
      const patched = await c.request('PATCH', '/api/v1/namespaces/default/pods/downward', { body: JSON.stringify({ metadata: { labels: { stage: 'two' } } }), headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patched.status, 200, patched.body);
      await until('the new label in the container', async () => (await logs()).includes('labels: stage="two"'), 30_000);
      // deleted, its tmpfs is unmounted with its volumes
      assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/downward')).status, 200);
      await until('downward gone', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/downward')).status === 404, 20_000);
      const mounts = await readFile('/proc/self/mounts', 'utf8');
      assert.ok(!mounts.split('\n').some(l => l.includes('kubernetes.io~empty-dir/scratch') && l.includes(agent.rootDir)), 'the tmpfs is unmounted');
    });
  })();

  await t.test('sidecars: started before the main container, stopped after it', async () => {
    const hostDir = await mkdtemp(join(tmpdir(), 'orch-sidecar-'));
    t.after(() => rm(hostDir, { recursive: true, force: true }));
    const body = pod('with-sidecar', node, {
      // the main container takes a moment to stop: a sidecar stopped alongside would finish first
      command: ['sh', '-c', 'test -e /out/side-up && echo main-start >> /out/order; trap "sleep 0.5; echo main-stop >> /out/order; exit 0" TERM; while true; do sleep 0.1; done'],
      volumeMounts: [{ name: 'out', mountPath: '/out' }],
    }, {
      volumes: [{ name: 'out', hostPath: { path: hostDir, type: 'Directory' } }],
      initContainers: [{ name: 'side', image, imagePullPolicy: 'IfNotPresent', restartPolicy: 'Always', command: ['sh', '-c', 'touch /out/side-up; trap "echo side-stop >> /out/order; exit 0" TERM; while true; do sleep 0.1; done'], volumeMounts: [{ name: 'out', mountPath: '/out' }] }],
    });
    assert.equal((await create(c, body)).status, 201);
    await until('with-sidecar Running', async () => (await getPod(c, 'with-sidecar'))?.status?.phase === 'Running');
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/with-sidecar')).status, 200);
    await until('with-sidecar gone', async () => (await c.request('GET', '/api/v1/namespaces/default/pods/with-sidecar')).status === 404, 30_000);
    assert.equal(await readFile(join(hostDir, 'order'), 'utf8'), 'main-start\nmain-stop\nside-stop\n');
  });

  await t.test('readiness gates: Ready waits for the gate\'s condition, which the agent leaves to its writer', async () => {
    assert.equal((await create(c, pod('gated', node, { command: ['sleep', '3600'] }, { readinessGates: [{ conditionType: 'example.com/lb' }] }))).status, 201);
    const waiting = await until('gated Running, not Ready', async () => { const p = await getPod(c, 'gated'); return p?.status?.phase === 'Running' && cond(p, 'ContainersReady') === 'True' && p; });
    const ready = waiting.status.conditions.find((x: any) => x.type === 'Ready');
    assert.deepEqual([ready.status, ready.reason, ready.message], ['False', 'ReadinessGatesNotReady', 'corresponding condition of pod readiness gate "example.com/lb" does not exist.']);
    const patched = await c.request('PATCH', '/api/v1/namespaces/default/pods/gated/status', { body: JSON.stringify({ status: { conditions: [{ type: 'example.com/lb', status: 'True' }] } }), headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    assert.equal(patched.status, 200, patched.body);
    const now = await until('gated Ready', async () => { const p = await getPod(c, 'gated'); return cond(p, 'Ready') === 'True' && p; }, 30_000);
    assert.equal(cond(now, 'example.com/lb'), 'True', 'the gate\'s condition is kept');
    assert.equal((await c.request('DELETE', '/api/v1/namespaces/default/pods/gated?gracePeriodSeconds=0')).status, 200);
  });

  await t.test('seccomp Localhost: a missing profile is CreateContainerError, a present one runs; a forbidden sysctl fails the pod', async () => {
    await mkdir(join(agent.rootDir, 'seccomp'), { recursive: true });
    await writeFile(join(agent.rootDir, 'seccomp', 'allow-all.json'), JSON.stringify({ defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['mount'], action: 'SCMP_ACT_ERRNO', errnoRet: 1 }] }));
    const sleeper = { command: ['sh', '-c', 'while true; do sleep 1; done'] };
    const localhost = (file: string) => ({ ...sleeper, securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: file } } });
    assert.equal((await create(c, pod('no-profile', node, localhost('missing.json')))).status, 201);
    assert.equal((await create(c, pod('with-profile', node, localhost('allow-all.json')))).status, 201);
    const refused = await until('CreateContainerError', async () => {
      const p = await getPod(c, 'no-profile');
      return p?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CreateContainerError' && p;
    });
    const missing = join(agent.rootDir, 'seccomp', 'missing.json');
    assert.equal(refused.status.containerStatuses[0].state.waiting.message, `cannot load seccomp profile "${missing}": open ${missing}: no such file or directory`);
    assert.equal(refused.status.phase, 'Pending');
    await until('with-profile Running', async () => (await getPod(c, 'with-profile'))?.status?.phase === 'Running');
    for (const k of kubectls()) {
      const get = await kubectl(k.path, orch.kubeconfig, ['get', 'pod', 'no-profile']);
      assert.match(get.stdout, /^no-profile\s+0\/1\s+CreateContainerError\s+0/m, `${k.label}: ${get.stdout}`);
    }
    const sysctl = pod('sysctl', node, sleeper, { securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] } });
    assert.equal((await create(c, sysctl)).status, 201);
    const failed = await until('SysctlForbidden', async () => { const p = await getPod(c, 'sysctl'); return p?.status?.phase === 'Failed' && p; });
    assert.equal(failed.status.reason, 'SysctlForbidden');
    assert.equal(failed.status.message, 'forbidden sysctl: "net.core.somaxconn" not allowlisted');
  });

  await t.test('a static pod manifest runs and appears in the API as a mirror pod', async () => {
    await writeFile(join(staticDir, 'static-web.yaml'), [
      'apiVersion: v1', 'kind: Pod', 'metadata:', '  name: static-web', 'spec:', '  containers:', '  - name: web', `    image: ${image}`, '    command: ["sh", "-c", "while true; do sleep 1; done"]', '',
    ].join('\n'));
    const name = `static-web-${node}`;
    const mirror = await until('the mirror pod Running', async () => { const p = await getPod(c, name); return p?.status?.phase === 'Running' && p; });
    assert.ok(mirror.metadata.annotations['kubernetes.io/config.mirror']);
    assert.equal(mirror.metadata.annotations['kubernetes.io/config.source'], 'file');
    assert.equal(mirror.metadata.ownerReferences?.[0]?.kind, 'Node');
    assert.equal(mirror.spec.nodeName, node);
    // deleting the mirror does not stop the static pod: the agent recreates the mirror
    await c.request('DELETE', `/api/v1/namespaces/default/pods/${name}?gracePeriodSeconds=0`);
    await until('the mirror recreated', async () => { const p = await getPod(c, name); return p && p.metadata.uid !== mirror.metadata.uid && p; });
    // removing the manifest stops the pod and its mirror goes away
    await rm(join(staticDir, 'static-web.yaml'));
    await until('the mirror removed', async () => (await c.request('GET', `/api/v1/namespaces/default/pods/${name}`)).status === 404);
  });

  await Promise.all([crashAndLogs, volumes]);

  // the drain cordons the node: last, alone
  await t.test('kubectl drain: blocked by a PodDisruptionBudget, then the evicted pod is marked, stopped and gone', async () => {
    const k = kubectls().at(-1)!;
    const guarded = pod('guarded', node, { command: ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"] });
    (guarded.metadata as Record<string, unknown>).labels = { app: 'guarded' };
    assert.equal((await create(c, guarded)).status, 201);
    await until('guarded Ready', async () => cond(await getPod(c, 'guarded'), 'Ready') === 'True');
    const pdbs = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    assert.equal((await c.request('POST', pdbs, { body: JSON.stringify({ metadata: { name: 'guard' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } } }) })).status, 201);
    await until('the budget counts the pod', async () => (await c.request('GET', `${pdbs}/guard`)).json().status?.currentHealthy === 1);
    const child = spawn(k.path, ['--kubeconfig', orch.kubeconfig, 'drain', node, '--pod-selector=app=guarded', '--force', '--timeout=60s'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', d => { out += d; });
    child.stderr.on('data', d => { out += d; });
    const exited = new Promise<number | null>(r => child.once('exit', r));
    const marked: unknown[] = [];
    try {
      await until('the eviction refused', async () => out.includes("Cannot evict pod as it would violate the pod's disruption budget."), 30_000, 50);
      assert.equal((await getPod(c, 'guarded')).metadata.deletionTimestamp, undefined, 'a refused eviction leaves the pod');
      const relax = await c.request('PATCH', `${pdbs}/guard`, { body: JSON.stringify({ spec: { minAvailable: 0 } }), headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(relax.status, 200, relax.body);
      // the DisruptionTarget condition is there while the container stops
      await until('the pod marked', async () => { const p = await getPod(c, 'guarded'); const m = p?.status?.conditions?.find((x: any) => x.type === 'DisruptionTarget'); if (m) marked.push(m); return !p || m; }, 20_000, 50);
      assert.equal(await exited, 0, out);
    } finally {
      child.kill();
    }
    assert.equal((marked[0] as { reason?: string } | undefined)?.reason, 'EvictionByEvictionAPI', out);
    assert.match(out, /pod\/guarded evicted/);
    assert.equal((await c.request('GET', '/api/v1/namespaces/default/pods/guarded')).status, 404);
    assert.equal((await kubectl(k.path, orch.kubeconfig, ['uncordon', node])).code, 0);
  });
});
