// Pods as a user drives them with kubectl 1.33 and with 1.27, on real containerd: every step here
// is a kubectl command (apply, patch, logs, get, describe, delete), each version with its own
// pods. A ConfigMap volume shows an update and keeps its files through many syncs; a crashing
// container shows CrashLoopBackOff; a delete runs preStop before SIGTERM; a container over its
// memory limit is OOMKilled. (Completed across an agent restart is in pods-behaviour, kubectl top
// in metrics-containerd and sizeLimit eviction in eviction-containerd, each with both versions.)
//
// The agent syncs every second here, so the default hold of 30 s is 30 syncs, three times what ten
// minutes are at the default sync period of a minute; ORCH_ACCEPTANCE_HOLD_S=600 holds the full
// ten minutes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerdSkipReason } from '../support/containerd.ts';
import { busyboxSkipReason } from '../support/oci-image.ts';
import { skipForMissing } from '../support/requires.ts';
import { busyboxPod as pod, startContainerdCluster } from './support/containerd-cluster.ts';
import { kubectl, kubectls } from './support/kubectl.ts';
import { until } from './support/until.ts';

const holdSeconds = Number(process.env['ORCH_ACCEPTANCE_HOLD_S'] ?? 30);

// Each version's cases run beside the other version's, and the ConfigMap case's hold beside the
// rest of its version's cases: the pods are separate, and the hold is otherwise idle waiting.
test('pods driven by kubectl 1.33 and 1.27 on containerd', { timeout: 300_000 + holdSeconds * 1000, concurrency: true }, async t => {
  const skip = containerdSkipReason() ?? busyboxSkipReason();
  if (skip) return t.skip(skipForMissing(skip));
  const versions = kubectls();
  if (process.env['CI'] === 'true') assert.deepEqual(versions.map(v => v.label), ['1.33', '1.27'], 'kubectl 1.33 and 1.27 in CI');
  if (!versions.length) return t.skip(skipForMissing('kubectl not installed'));
  const { orch, node } = await startContainerdCluster(t, 'acceptance', { syncFrequency: '1s' });
  const out = await mkdtemp(join(tmpdir(), 'orch-acceptance-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  const tag = (label: string) => label.replace(/\W/g, '');
  // the two versions' hogs run one after the other: with both killed at once, containerd once
  // reported one of them as Error 137 rather than OOMKilled (its reason comes from an OOM event
  // it reads apart from the task's exit)
  let oomTurn = Promise.resolve();

  await Promise.all(versions.map(async k => {
    const run = async (args: string[], input?: string) => {
      const r = await kubectl(k.path, orch.kubeconfig, args, input);
      assert.equal(r.code, 0, `kubectl ${k.label} ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    const jsonpath = (name: string, path: string) => run(['get', 'pod', name, '-o', `jsonpath=${path}`]);
    const v = tag(k.label);

    const held = t.test(`kubectl ${k.label}: a ConfigMap volume shows an update within a minute and keeps its files for ${holdSeconds} s of syncs`, async () => {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `settings-${v}`, namespace: 'default' }, data: { greeting: 'one' } };
      const reader = pod(`reader-${v}`, node, {
        command: ['sh', '-c', "trap 'exit 0' TERM; while true; do echo \"greeting=$(cat /etc/settings/greeting)\"; sleep 1; done"],
        volumeMounts: [{ name: 'settings', mountPath: '/etc/settings' }],
      }, { volumes: [{ name: 'settings', configMap: { name: `settings-${v}` } }] });
      await run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [cm, reader] }));
      await until('the reader Running', async () => (await jsonpath(`reader-${v}`, '{.status.phase}')) === 'Running', 60_000);
      await until('the first value in its log', async () => (await run(['logs', `reader-${v}`])).includes('greeting=one'));
      await run(['patch', 'configmap', `settings-${v}`, '-p', JSON.stringify({ data: { greeting: 'two' } })]);
      const patchedAt = Date.now();
      await until('the update inside the container', async () => (await run(['logs', `reader-${v}`, '--tail=1'])).trim() === 'greeting=two', 60_000);
      t.diagnostic(`kubectl ${k.label}: the update reached the container after ${Date.now() - patchedAt} ms`);
      await new Promise(r => setTimeout(r, holdSeconds * 1000));
      const lines = (await run(['logs', `reader-${v}`])).trim().split('\n');
      assert.deepEqual(lines.filter(l => l !== 'greeting=one' && l !== 'greeting=two'), [], 'the file was readable at every read');
      assert.equal(lines.at(-1), 'greeting=two');
      assert.ok(lines.length >= holdSeconds, `read about once a second for the whole hold: ${lines.length} lines`);
      assert.equal(await jsonpath(`reader-${v}`, '{.status.containerStatuses[0].restartCount}'), '0');
      await run(['delete', 'pod', `reader-${v}`, '--wait=false']);
    });

    await t.test(`kubectl ${k.label}: a crashing container shows CrashLoopBackOff and the back-off event`, async () => {
      await run(['apply', '-f', '-'], JSON.stringify(pod(`crash-${v}`, node, { command: ['sh', '-c', 'echo about to fail; exit 3'] })));
      const row = await until('CrashLoopBackOff in kubectl get', async () => {
        const line = (await run(['get', 'pod', `crash-${v}`, '--no-headers'])).trim();
        return /\sCrashLoopBackOff\s/.test(line) && line;
      }, 60_000);
      assert.match(row, new RegExp(`^crash-${v}\\s+0/1\\s+CrashLoopBackOff\\s+[1-9]`));
      assert.equal(await jsonpath(`crash-${v}`, '{.status.containerStatuses[0].lastState.terminated.exitCode}'), '3');
      assert.match(await jsonpath(`crash-${v}`, '{.status.containerStatuses[0].state.waiting.message}'), /^back-off \d+s restarting failed container=main pod=crash-\w+_default\(/);
      assert.match(await run(['describe', 'pod', `crash-${v}`]), /BackOff\s+.*Back-off restarting failed container main in pod crash-/);
      assert.equal((await run(['logs', `crash-${v}`, '--previous'])).trim(), 'about to fail');
      await run(['delete', 'pod', `crash-${v}`, '--grace-period=1', '--wait=false']);
    });

    await t.test(`kubectl ${k.label}: kubectl delete runs preStop before SIGTERM`, async () => {
      const dir = join(out, v);
      await run(['apply', '-f', '-'], JSON.stringify(pod(`stopper-${v}`, node, {
        command: ['sh', '-c', "trap 'echo TERM >> /out/order; exit 0' TERM; while true; do sleep 0.2; done"],
        lifecycle: { preStop: { exec: { command: ['sh', '-c', 'echo prestop >> /out/order; sleep 1'] } } },
        volumeMounts: [{ name: 'out', mountPath: '/out' }],
      }, { terminationGracePeriodSeconds: 20, volumes: [{ name: 'out', hostPath: { path: dir, type: 'DirectoryOrCreate' } }] })));
      await until('the stopper Running', async () => (await jsonpath(`stopper-${v}`, '{.status.phase}')) === 'Running', 60_000);
      const started = Date.now();
      await run(['delete', 'pod', `stopper-${v}`]);
      const took = Date.now() - started;
      assert.equal(await readFile(join(dir, 'order'), 'utf8'), 'prestop\nTERM\n');
      assert.ok(took < 15_000, `the TERM trap ended it soon after the hook, not at the 20 s deadline: ${took} ms`);
    });

    const myTurn = oomTurn;
    let done!: () => void;
    oomTurn = new Promise(r => { done = r; });
    await t.test(`kubectl ${k.label}: a container over its memory limit is OOMKilled`, async () => {
      await myTurn;
      try {
        await oomCase();
      } finally {
        done();
      }
    });
    async function oomCase() {
      await run(['apply', '-f', '-'], JSON.stringify(pod(`hog-${v}`, node, { command: ['/bin/busybox', 'tail', '/dev/zero'], resources: { limits: { memory: '24Mi' } } }, { restartPolicy: 'Never' })));
      await until('the hog Failed', async () => (await jsonpath(`hog-${v}`, '{.status.phase}')) === 'Failed', 60_000);
      assert.equal(await jsonpath(`hog-${v}`, '{.status.containerStatuses[0].state.terminated.reason} {.status.containerStatuses[0].state.terminated.exitCode}'), 'OOMKilled 137');
      assert.match((await run(['get', 'pod', `hog-${v}`, '--no-headers'])).trim(), new RegExp(`^hog-${v}\\s+0/1\\s+OOMKilled\\s+0\\s`));
    }
    await held;
  }));
});
