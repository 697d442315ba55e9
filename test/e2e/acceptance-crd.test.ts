// Acceptance for CustomResourceDefinitions (issue 25): one `orch server`, one CRD an operator
// would ship (Backup of example.com, v1 deprecated and v2 stored, CEL rules with a transition
// rule, defaults, printer columns, status and scale, a list-map, a conversion webhook the test
// serves over HTTPS with its own CA), driven as a real cluster is: kubectl 1.33 and 1.27 (create,
// apply client- and server-side, patch, scale, get -w, explain, delete), an informer of
// @kubernetes/client-node, and the Python client's dynamic client. Answers are checked as
// Kubernetes gives them.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { backupCrd, convertBackup, group } from './support/backup-crd.ts';
import { startWebhookServer, type WebhookServer } from '../support/webhook-server.ts';
import { requires, skipForMissing } from '../support/requires.ts';

const versions = kubectls();
const python = '/usr/bin/python3';
const run = promisify(execFile);

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

function failed(r: Run): string {
  assert.notEqual(r.code, 0, `kubectl should have failed: ${r.stdout}`);
  return r.stderr;
}

const v1Backup = (name: string, ns: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Backup', metadata: { name, namespace: ns }, spec });
const v2Backup = (name: string, ns: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: `${group}/v2`, kind: 'Backup', metadata: { name, namespace: ns }, spec });

/** `kubectl get -w` left running: waits for what it prints, stopped by the test */
function watchTable(bin: string, kubeconfig: string, args: string[]): { printed(re: RegExp): Promise<string>; stop(): void } {
  const child = spawn(bin, ['--kubeconfig', kubeconfig, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', d => { text += d; });
  child.stderr.on('data', d => { text += d; });
  return {
    printed: re => until(`kubectl get -w to print ${re}`, async () => re.test(text) && text, 5_000, 50)
      .catch((err: Error) => { throw new Error(`${err.message}; it printed:\n${text}`); }),
    stop: () => child.kill(),
  };
}

describe('acceptance: a multi-version CRD with a conversion webhook, served to real clients', requires(versions.length === 0 && 'no kubectl binary found'), () => {
  let orch: OrchProcess;
  let hook: WebhookServer;
  const admin = (args: string[], input?: string) => kubectl(versions[0]!.path, orch.kubeconfig, args, input);

  before(async () => {
    [orch, hook] = await Promise.all([startOrch(), startWebhookServer()]);
    hook.on('/convert', convertBackup);
    assert.match(ok(await admin(['apply', '-f', '-'], backupCrd(hook.url('/convert'), hook.caBundle))), /customresourcedefinition\.apiextensions\.k8s\.io\/backups\.example\.com created/);
    ok(await admin(['wait', '--for=condition=Established', '--timeout=10s', `crd/backups.${group}`]));
  });
  after(async () => { await orch?.stop(); await orch?.cleanup(); await hook?.close(); });

  // each client in a namespace of its own, all at once: the wall time of the file stays short
  describe('kubectl 1.33 and 1.27, client-node and the Python client, side by side', { concurrency: true }, () => {
    for (const { label, path: bin } of versions) {
      // one step a subtest, so that each acceptance line passes or fails on its own
      test(`kubectl ${label}: create, apply, patch, scale, get -w, explain, delete`, async t => {
        const ns = `backups-${label.replace(/\W/g, '')}`;
        const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, ['-n', ns, ...args], input);
        ok(await k(['create', 'namespace', ns]));

        await t.test('create in v2, defaults filled; the printer columns and the short name', async () => {
          const made = await k(['create', '-f', '-'], v2Backup('nightly', ns, { schedule: '0 3 * * *', destination: { bucket: 'nightly-bucket' } }));
          assert.equal(ok(made), `backup.${group}/nightly created\n`);
          assert.deepEqual(JSON.parse(ok(await k(['get', 'backup', 'nightly', '-o', 'json']))).spec,
            { schedule: '0 3 * * *', destination: { bucket: 'nightly-bucket' }, retention: { days: 7 }, replicas: 1, maxReplicas: 3 });
          const table = ok(await k(['get', 'bk']));
          // a column whose path finds nothing (no status yet) is a null cell, printed empty
          assert.match(table, /^NAME\s+SCHEDULE\s+BUCKET\s+REPLICAS\s+PHASE\s+AGE\n/);
          assert.match(table, /^nightly\s+0 3 \* \* \*\s+nightly-bucket\s+1\s+\d+s$/m);
        });

        await t.test('create in the deprecated v1: a warning, stored as v2 through the webhook, read back in both', async () => {
          const made = await k(['create', '-f', '-'], v1Backup('legacy', ns, { schedule: '@hourly', bucket: 'legacy-bucket', hooks: [{ name: 'pre', command: 'sync' }] }));
          assert.equal(ok(made), `backup.${group}/legacy created\n`);
          assert.match(made.stderr, /Warning: example\.com\/v1 Backup is deprecated; use example\.com\/v2 Backup/);
          const stored = JSON.parse(ok(await k(['get', 'backup', 'legacy', '-o', 'json'])));
          assert.equal(stored.apiVersion, `${group}/v2`);
          assert.deepEqual(stored.spec, { schedule: '@hourly', destination: { bucket: 'legacy-bucket' }, retention: { days: 7 }, replicas: 1, maxReplicas: 3, hooks: [{ name: 'pre', command: 'sync' }] });
          assert.equal(ok(await k(['get', `backups.v1.${group}`, 'legacy', '-o', 'jsonpath={.apiVersion} {.spec.bucket} {.spec.retentionDays}'])), `${group}/v1 legacy-bucket 7`);
          // v1's own transition rule, checked on the object converted to v1
          assert.equal(failed(await k(['patch', `backups.v1.${group}`, 'legacy', '--type=merge', '-p', '{"spec":{"bucket":"elsewhere"}}'])),
            `Warning: ${group}/v1 Backup is deprecated; use ${group}/v2 Backup\nThe Backup "legacy" is invalid: spec.bucket: Invalid value: "elsewhere": bucket is immutable\n`);
        });

        await t.test('apply, client-side: created, then configured', async () => {
          const weekly = (schedule: string) => v2Backup('weekly', ns, { schedule, destination: { bucket: 'weekly-bucket' } });
          assert.equal(ok(await k(['apply', '-f', '-'], weekly('0 4 * * 0'))), `backup.${group}/weekly created\n`);
          assert.equal(ok(await k(['apply', '-f', '-'], weekly('0 5 * * 0'))), `backup.${group}/weekly configured\n`);
          assert.equal(ok(await k(['get', 'backup', 'weekly', '-o', 'jsonpath={.spec.schedule}'])), '0 5 * * 0');
        });

        await t.test('apply, server-side: two managers merge a list-map; a conflict is refused', async () => {
          const hourly = v2Backup('hourly', ns, { schedule: '0 * * * *', destination: { bucket: 'hourly-bucket' }, hooks: [{ name: 'pre', command: 'sync' }] });
          assert.equal(ok(await k(['apply', '--server-side', '--field-manager=ops', '-f', '-'], hourly)), `backup.${group}/hourly serverside-applied\n`);
          ok(await k(['apply', '--server-side', '--field-manager=auditor', '-f', '-'], v2Backup('hourly', ns, { hooks: [{ name: 'audit', command: 'log' }] })));
          assert.equal(ok(await k(['get', 'backup', 'hourly', '-o', 'jsonpath={.spec.hooks[*].name} {.spec.schedule}'])), 'pre audit 0 * * * *');
          const conflict = failed(await k(['apply', '--server-side', '--field-manager=auditor', '-f', '-'], v2Backup('hourly', ns, { schedule: '30 * * * *', hooks: [{ name: 'audit', command: 'log' }] })));
          assert.match(conflict, /^error: Apply failed with 1 conflict: conflict with "ops": \.spec\.schedule$/m);
        });

        await t.test('patch: merge and JSON; strategic merge refused (415)', async () => {
          assert.equal(ok(await k(['patch', 'backup', 'nightly', '--type=merge', '-p', '{"spec":{"replicas":2}}'])), `backup.${group}/nightly patched\n`);
          ok(await k(['patch', 'backup', 'nightly', '--type=json', '-p', '[{"op":"replace","path":"/spec/schedule","value":"0 2 * * *"}]']));
          assert.equal(ok(await k(['get', 'backup', 'nightly', '-o', 'jsonpath={.spec.replicas} {.spec.schedule} {.metadata.generation}'])), '2 0 2 * * * 3');
          // kubectl names the patch type and kind in front of the server's 415
          assert.equal(failed(await k(['patch', 'backup', 'nightly', '--type=strategic', '-p', '{"spec":{"replicas":1}}'])),
            `error: application/strategic-merge-patch+json is not supported by ${group}/v2, Kind=Backup: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n`);
        });

        await t.test('CEL rules: a transition rule on oldSelf, a messageExpression', async () => {
          assert.equal(failed(await k(['patch', 'backup', 'nightly', '--type=merge', '-p', '{"spec":{"destination":{"bucket":"elsewhere"}}}'])),
            `The Backup "nightly" is invalid: spec.destination.bucket: Invalid value: "elsewhere": bucket is immutable\n`);
          // a messageExpression's failure shows no value (the expression embeds what it wants)
          assert.equal(failed(await k(['patch', 'backup', 'nightly', '--type=merge', '-p', '{"spec":{"replicas":5}}'])),
            `The Backup "nightly" is invalid: spec: Invalid value: replicas must not exceed maxReplicas for the backup scheduled at 0 2 * * *\n`);
        });

        await t.test('status through its subresource; scale through specReplicasPath, held to the CEL rule', async () => {
          ok(await k(['patch', 'backup', 'nightly', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Completed","replicas":2,"selector":"app=backup"}}']));
          assert.equal(ok(await k(['scale', 'backup', 'nightly', '--replicas=3'])), `backup.${group}/nightly scaled\n`);
          assert.equal(ok(await k(['get', 'backup', 'nightly', '-o', 'jsonpath={.spec.replicas} {.status.phase}'])), '3 Completed');
          assert.match(failed(await k(['scale', 'backup', 'nightly', '--replicas=4'])), /The Backup "nightly" is invalid: spec: Invalid value: replicas must not exceed maxReplicas for the backup scheduled at 0 2 \* \* \*/);
        });

        await t.test('get -w: the printer columns, then a change as a new row', async () => {
          const watching = watchTable(bin, orch.kubeconfig, ['-n', ns, 'get', 'backups', '-w']);
          let watched: string;
          try {
            await watching.printed(/^nightly\s/m);
            ok(await k(['patch', 'backup', 'nightly', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Running"}}']));
            watched = await watching.printed(/^nightly\s.*\sRunning\s/m);
          } finally {
            watching.stop();
          }
          assert.match(watched, /^NAME\s+SCHEDULE\s+BUCKET\s+REPLICAS\s+PHASE\s+AGE\n/);
          assert.match(watched, /^nightly\s+0 2 \* \* \*\s+nightly-bucket\s+3\s+Completed\s+\d+s$/m);
          assert.match(watched, /^hourly\s+0 \* \* \* \*\s+hourly-bucket\s+1\s+\d+s$/m);
        });

        await t.test('explain shows the schema\'s descriptions', async () => {
          const explained = ok(await k(['explain', 'backups.spec']));
          // kubectl wraps descriptions at 80 columns
          assert.match(explained, /KIND:\s+Backup\nVERSION:\s+v2\n/);
          assert.match(explained, /DESCRIPTION:\s+BackupSpec says when a backup runs, where it writes and how long copies are\s+kept\./);
          assert.match(explained, /schedule\s+<string> -required-\s+Cron schedule the backup runs on\./);
        });

        await t.test('delete', async () => {
          assert.equal(ok(await k(['delete', 'backup', 'weekly'])), `backup.${group} "weekly" deleted\n`);
          assert.equal(failed(await k(['get', 'backup', 'weekly'])), `Error from server (NotFound): backups.${group} "weekly" not found\n`);
        });
      });
    }

    test('an informer of @kubernetes/client-node on v1 sees add, update and delete, converted', async () => {
      const ns = 'informed';
      ok(await admin(['create', 'namespace', ns]));
      const kc = new k8s.KubeConfig();
      kc.loadFromFile(orch.kubeconfig);
      const custom = kc.makeApiClient(k8s.CustomObjectsApi);
      const informer = k8s.makeInformer(kc, `/apis/${group}/v1/namespaces/${ns}/backups`,
        () => custom.listNamespacedCustomObject({ group, version: 'v1', namespace: ns, plural: 'backups' }));
      const events: string[] = [];
      const note = (type: string) => (o: k8s.KubernetesObject & { spec?: { bucket?: string; replicas?: number } }) => events.push(`${type} ${o.apiVersion} ${o.metadata?.name} ${o.spec?.bucket} ${o.spec?.replicas}`);
      informer.on('add', note('add'));
      informer.on('update', note('update'));
      informer.on('delete', note('delete'));
      await informer.start();
      try {
        ok(await admin(['create', '-f', '-'], v2Backup('seen', ns, { schedule: '0 1 * * *', destination: { bucket: 'b' } })));
        ok(await admin(['-n', ns, 'patch', 'backup', 'seen', '--type=merge', '-p', '{"spec":{"replicas":2}}']));
        ok(await admin(['-n', ns, 'delete', 'backup', 'seen']));
        await until('the informer sees the delete', async () => events.some(e => e.startsWith('delete')), 10_000, 50);
        assert.deepEqual(events, [`add ${group}/v1 seen b 1`, `update ${group}/v1 seen b 2`, `delete ${group}/v1 seen b 2`]);
      } finally {
        await informer.stop();
      }
    });

    test('the Python client\'s dynamic client: resource by apiVersion and kind, create, list, patch, delete', async t => {
      const missing = await run(python, ['-c', 'import kubernetes.dynamic']).then(() => undefined, () => `${python} with the kubernetes module not installed (apt-get install python3-kubernetes)`);
      if (missing) return t.skip(skipForMissing(missing));
      ok(await admin(['create', 'namespace', 'python']));
      const script = `
import json, sys
from kubernetes import config, dynamic
from kubernetes.client import api_client
client = dynamic.DynamicClient(api_client.ApiClient(configuration=config.load_kube_config(config_file=sys.argv[1])))
backups = client.resources.get(api_version='${group}/v2', kind='Backup')
made = backups.create(namespace='python', body={'apiVersion': '${group}/v2', 'kind': 'Backup', 'metadata': {'name': 'py'}, 'spec': {'schedule': '@daily', 'destination': {'bucket': 'py-bucket'}}})
listed = [i.metadata.name for i in backups.get(namespace='python').items]
patched = backups.patch(namespace='python', name='py', body={'spec': {'replicas': 2}}, content_type='application/merge-patch+json')
old = client.resources.get(api_version='${group}/v1', kind='Backup').get(namespace='python', name='py')
gone = backups.delete(namespace='python', name='py')
print(json.dumps({'made': made.spec.retention.days, 'listed': listed, 'patched': patched.spec.replicas, 'v1': old.spec.bucket, 'deleted': [gone.kind, gone.status, gone.details.name], 'left': len(backups.get(namespace='python').items)}))
      `;
      const { stdout } = await run(python, ['-c', script, orch.kubeconfig], { timeout: 60_000 });
      assert.deepEqual(JSON.parse(stdout.trim().split('\n').pop()!), { made: 7, listed: ['py'], patched: 2, v1: 'py-bucket', deleted: ['Status', 'Success', 'py'], left: 0 });
    });
  });

  test('the conversion webhook was asked both ways, with ConversionReview v1', () => {
    const asked = new Set(hook.received.filter(r => r.path === '/convert').map(r => `${r.review.apiVersion} ${r.review.kind} ${r.review.request.desiredAPIVersion}`));
    assert.deepEqual([...asked].sort(), [`apiextensions.k8s.io/v1 ConversionReview ${group}/v1`, `apiextensions.k8s.io/v1 ConversionReview ${group}/v2`]);
  });

  test('deleting the CRD deletes its objects, then stops serving it', async () => {
    assert.equal(ok(await admin(['delete', 'crd', `backups.${group}`, '--timeout=15s'])), `customresourcedefinition.apiextensions.k8s.io "backups.${group}" deleted\n`);
    // kubectl's discovery cache still knows the resource, so it asks and hears 404; cold, it knows none
    assert.match(failed(await admin(['get', 'backups', '-A'])),
      /^(Error from server \(NotFound\): Unable to list "example\.com\/v2, Resource=backups": the server could not find the requested resource|error: the server doesn't have a resource type "backups")\n$/);
    assert.equal(failed(await admin(['get', '--raw', `/apis/${group}/v2/backups`])), 'Error from server (NotFound): the server could not find the requested resource\n');
  });
});
