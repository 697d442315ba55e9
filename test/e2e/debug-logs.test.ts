// kubectl debug and kubectl logs against orch, on real containerd (the local busybox image) and on
// `orch runtime-sim`, with kubectl 1.33 and 1.27 on one cluster per runtime:
// - `kubectl debug pod/x --target=c` adds an ephemeral container through pods/ephemeralcontainers;
//   the agent starts it in the running pod, it runs (ephemeralContainerStatuses) and, joined to
//   the target's process namespace, its `ps` shows the target's process as PID 1 (a debug
//   container without a target does not see it); deleting the pod stops them with the rest;
// - `kubectl debug --copy-to` runs a copy of the pod whose containers share its processes;
// - `kubectl debug node/<n>` creates its host pod (hostNetwork/PID/IPC, the node's / at /host) and
//   its log shows the host's /etc/hostname;
// - `kubectl logs` with --tail, --limit-bytes, --timestamps, --since, --since-time, --previous,
//   --all-containers, --prefix, -l over several pods and --insecure-skip-tls-verify-backend, and
//   a bad option refused in the API server's words.

import { suite, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { requires } from '../support/requires.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { image, runtimeKinds, startPodCluster, type PodCluster } from './support/pod-runtimes.ts';
import { until } from './support/until.ts';

const getPod = async (k: PodCluster, name: string) => { const r = await k.c.request('GET', `/api/v1/namespaces/default/pods/${name}`); return r.status === 200 ? r.json() : undefined; };

async function createPod(k: PodCluster, name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}): Promise<void> {
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels }, spec: { nodeName: k.node, terminationGracePeriodSeconds: 1, ...spec } };
  const r = await k.c.request('POST', '/api/v1/namespaces/default/pods', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201, r.body);
}

const container = (name: string, command: string[]) => ({ name, image, imagePullPolicy: 'IfNotPresent', command });
const ephemeralStatus = (pod: any, name: string) => (pod?.status?.ephemeralContainerStatuses ?? []).find((s: any) => s.name === name);
const hostname = readFileSync('/etc/hostname', 'utf8').trim();

// the two runtimes' clusters side by side: each has its own server, node and pod subnet
suite('kubectl debug and logs on each runtime', { concurrency: true }, () => {
  for (const kind of runtimeKinds) {
    test(`kubectl debug and logs on ${kind.name}`, { ...requires(kind.missing() ?? (kubectls().length ? undefined : 'kubectl is not installed')), timeout: 180_000 }, async t => {
      const k = await startPodCluster(kind, t);
      const bins = kubectls();
      const run = (bin: string, args: string[]) => kubectl(bin, k.orch.kubeconfig, args);

      // the pods every case uses, started together
      await createPod(k, 'target', { containers: [container('app', ['sleep', '3601'])] });
      await createPod(k, 'chatty', {
        initContainers: [container('setup', ['sh', '-c', 'echo init done'])],
        containers: [container('a', ['sh', '-c', 'echo one; echo two; echo three; sleep 3600']), container('b', ['sh', '-c', 'echo from-b; sleep 3600'])],
      }, { app: 'chatty' });
      await createPod(k, 'chatty2', { containers: [container('a', ['sh', '-c', 'echo second-pod; sleep 3600'])] }, { app: 'chatty' });
      await createPod(k, 'nopull', { containers: [{ name: 'c', image: 'registry.invalid/none:1', imagePullPolicy: 'IfNotPresent' }] });
      await createPod(k, 'crasher', { containers: [container('c', ['sh', '-c', 'echo run; sleep 1; exit 1'])] });
      for (const name of ['target', 'chatty', 'chatty2']) await until(`${name} running`, async () => (await getPod(k, name))?.status?.phase === 'Running');

      await t.test('kubectl debug --target: an ephemeral container in the target\'s process namespace', async () => {
        for (const { label, path } of bins) {
          const dbg = `dbg-${label.replace('.', '')}`;
          const profile = label === '1.27' ? [] : ['--profile=general'];
          const r = await run(path, ['debug', 'pod/target', '-c', dbg, `--image=${image}`, '--image-pull-policy=IfNotPresent', '--target=app', ...profile, '--', 'sh', '-c', 'ps; sleep 3600']);
          assert.equal(r.code, 0, `${label}: ${r.stderr}`);
          const plain = `plain-${label.replace('.', '')}`;
          assert.equal((await run(path, ['debug', 'pod/target', '-c', plain, `--image=${image}`, '--image-pull-policy=IfNotPresent', ...profile, '--', 'sh', '-c', 'ps; sleep 3600'])).code, 0);
          const pod = await until(`${label}: ${dbg} running`, async () => { const p = await getPod(k, 'target'); return ephemeralStatus(p, dbg)?.state?.running && ephemeralStatus(p, plain)?.state?.running && p; });
          const s = ephemeralStatus(pod, dbg);
          assert.equal(s.ready, false);
          assert.equal(s.restartCount, 0);
          assert.equal(s.started, undefined, 'no started for an ephemeral container');
          assert.match(s.containerID, /^\w[\w-]*:\/\/\S+$/);
          const ec = pod.spec.ephemeralContainers.find((c: any) => c.name === dbg);
          assert.equal(ec.targetContainerName, 'app');
          assert.equal(pod.status.phase, 'Running');
          assert.equal(pod.status.containerStatuses[0].restartCount, 0, 'the target was not restarted');
          // the target's process is PID 1 of the namespace the debug container joined
          const logs = await until(`${label}: ps in ${dbg}'s log`, async () => { const l = await run(path, ['logs', 'pod/target', '-c', dbg]); return /COMMAND/.test(l.stdout) && l; });
          assert.match(logs.stdout, /^\s+1\s+0\s+sleep 3601$/m, logs.stdout);
          assert.match(logs.stdout, /^\s+\d+\s+0\s+\{ps\} sh -c ps; sleep 3600$/m, logs.stdout);
          const alone = await until(`${label}: ps in ${plain}'s log`, async () => { const l = await run(path, ['logs', 'pod/target', '-c', plain]); return /COMMAND/.test(l.stdout) && l; });
          assert.doesNotMatch(alone.stdout, /sleep 3601/, 'without a target, its own processes only');
        }
        // --copy-to: a copy of the pod with one more container, the pod's processes shared
        // (shareProcessNamespace: the runtime's POD namespace)
        for (const { label, path } of bins) {
          const copy = `target-copy-${label.replace('.', '')}`;
          const r = await run(path, ['debug', 'target', `--copy-to=${copy}`, '--same-node', '--container=dbg', `--image=${image}`, '--image-pull-policy=IfNotPresent', ...(label === '1.27' ? [] : ['--profile=general']), '--', 'sh', '-c', 'ps; sleep 3600']);
          assert.equal(r.code, 0, `${label}: ${r.stderr}`);
          const pod = await until(`${copy} running`, async () => { const p = await getPod(k, copy); return p?.status?.phase === 'Running' && p; });
          // (kubectl 1.27 sends no shareProcessNamespace: its copy shares nothing)
          if (label === '1.27') { assert.equal(pod.spec.shareProcessNamespace, undefined); continue; }
          assert.equal(pod.spec.shareProcessNamespace, true, JSON.stringify(pod.spec));
          const logs = await until(`ps in ${copy}`, async () => { const l = await run(path, ['logs', copy, '-c', 'dbg']); return /COMMAND/.test(l.stdout) && l; });
          assert.match(logs.stdout, /^\s+\d+\s+0\s+sleep 3601$/m, logs.stdout);
        }
        // an existing ephemeral container may not be changed
        const cur = (await k.c.request('GET', '/api/v1/namespaces/default/pods/target/ephemeralcontainers')).json();
        cur.spec.ephemeralContainers[0].image = 'docker.io/library/busybox:9.9';
        const changed = await k.c.request('PUT', '/api/v1/namespaces/default/pods/target/ephemeralcontainers', { body: JSON.stringify(cur), headers: { 'content-type': 'application/json' } });
        assert.equal(changed.status, 422, changed.body);
        assert.match(changed.json().message, /spec\.ephemeralContainers: Forbidden: existing ephemeral containers "\S+" may not be changed/);
        const discovery = (await k.c.request('GET', '/api/v1')).json().resources.find((r: any) => r.name === 'pods/ephemeralcontainers');
        assert.deepEqual(discovery.verbs, ['get', 'patch', 'update']);
        // the pod's deletion stops its ephemeral containers with the others (checked after the next case)
        assert.equal((await k.c.request('DELETE', '/api/v1/namespaces/default/pods/target')).status, 200);
      });

      await t.test('kubectl debug node/<n>: the host pod sees the node\'s / at /host', async () => {
        for (const { label, path } of bins) {
          const r = await run(path, ['debug', `node/${k.node}`, `--image=${image}`, '--image-pull-policy=IfNotPresent', ...(label === '1.27' ? [] : ['--profile=general']), '--', 'sh', '-c', 'cat /host/etc/hostname']);
          assert.equal(r.code, 0, `${label}: ${r.stderr}`);
          const name = /Creating debugging pod (\S+) with container debugger on node/.exec(r.stdout + r.stderr)?.[1];
          assert.ok(name?.startsWith(`node-debugger-${k.node}-`), r.stdout + r.stderr);
          const pod = await until(`${label}: ${name} Succeeded`, async () => { const p = await getPod(k, name!); return p?.status?.phase === 'Succeeded' && p; });
          assert.equal(pod.spec.hostNetwork, true);
          assert.equal(pod.spec.hostPID, true);
          assert.equal(pod.spec.hostIPC, true);
          assert.equal(pod.status.podIP, '127.0.0.1', 'the node\'s address');
          const logs = await run(path, ['logs', name!]);
          assert.equal(logs.stdout.trim(), hostname, `${label}: ${logs.stdout} ${logs.stderr}`);
        }
      });

      await t.test('kubectl logs: tail, limit, timestamps, since, previous, all containers, prefixes, selectors', async () => {
        await until('nopull waiting on its image', async () => /ImagePull/.test((await getPod(k, 'nopull'))?.status?.containerStatuses?.[0]?.state?.waiting?.reason ?? ''));
        await until('crasher restarted', async () => (await getPod(k, 'crasher'))?.status?.containerStatuses?.[0]?.restartCount >= 1, 30_000);
        for (const { label, path } of bins) {
          const logs = async (args: string[]) => { const r = await run(path, ['logs', ...args]); assert.equal(r.code, 0, `${label} logs ${args.join(' ')}: ${r.stderr}`); return r.stdout; };
          assert.equal(await logs(['chatty', '-c', 'a']), 'one\ntwo\nthree\n');
          assert.equal(await logs(['chatty', '-c', 'a', '--tail=2']), 'two\nthree\n');
          assert.equal(await logs(['chatty', '-c', 'a', '--limit-bytes=6']), 'one\ntw');
          const stamped = (await logs(['chatty', '-c', 'a', '--timestamps'])).trimEnd().split('\n');
          assert.equal(stamped.length, 3);
          for (const l of stamped) assert.match(l, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z (one|two|three)$/);
          assert.equal(await logs(['chatty', '-c', 'a', '--since=1h']), 'one\ntwo\nthree\n');
          assert.equal(await logs(['chatty', '-c', 'a', '--since-time=2000-01-01T00:00:00Z']), 'one\ntwo\nthree\n');
          assert.equal(await logs(['chatty', '-c', 'a', `--since-time=${new Date(Date.now() + 3_600_000).toISOString()}`]), '');
          assert.equal(await logs(['chatty', '-c', 'a', '--insecure-skip-tls-verify-backend']), 'one\ntwo\nthree\n');
          assert.equal(await logs(['chatty', '-c', 'setup']), 'init done\n');
          assert.equal(await logs(['crasher', '--previous']), 'run\n');
          const all = await logs(['chatty', '--all-containers', '--prefix']);
          assert.deepEqual(all.trimEnd().split('\n').sort(), ['[pod/chatty/a] one', '[pod/chatty/a] three', '[pod/chatty/a] two', '[pod/chatty/b] from-b', '[pod/chatty/setup] init done']);
          const selected = await logs(['-l', 'app=chatty', '--all-containers', '--prefix']);
          for (const want of ['[pod/chatty/a] one', '[pod/chatty/b] from-b', '[pod/chatty2/a] second-pod']) assert.ok(selected.includes(want), `${label}: ${want} in ${selected}`);
          // kubectl picks the first container itself when none is named
          const none = await run(path, ['logs', 'chatty']);
          assert.equal(none.stdout, 'one\ntwo\nthree\n');
          assert.match(none.stderr, /Defaulted container "a" out of: a, b, setup \(init\)/);
          // a container that never ran: the kubelet's reason
          const waiting = await run(path, ['logs', 'nopull']);
          assert.match(waiting.stderr, /container "c" in pod "nopull" is waiting to start: (image can't be pulled|trying and failing to pull image)/);
          const bad = await run(path, ['get', '--raw', '/api/v1/namespaces/default/pods/chatty/log?container=a&sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z']);
          assert.notEqual(bad.code, 0);
          assert.match(bad.stderr, /at most one of `sinceTime` or `sinceSeconds` may be specified/);
        }
        await until('the debugged pod gone', async () => (await k.c.request('GET', '/api/v1/namespaces/default/pods/target')).status === 404, 20_000);
        assert.deepEqual(await k.containersOf('target'), [], 'its ephemeral containers stopped and removed with it');
      });
    });
  }
});
