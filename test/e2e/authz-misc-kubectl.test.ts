// Three authorization rules of the API spec with real clients against `orch server`:
// - a server-side dry run (kubectl --dry-run=server, newest and oldest kubectl) needs exactly the
//   permissions of the real request: update, patch and delete are refused with the real request's
//   403 until a Role grants those verbs, and then change nothing;
// - the health endpoints answer callers on another host (the machine's non-loopback address, the
//   server bound to 0.0.0.0) as kube-apiserver does: system:public-info-viewer lets anyone, with
//   or without credentials, read /livez, /readyz and /healthz (verbose and exclude included), a
//   single check's path needs more (system:monitoring or an administrator), and with
//   --anonymous-auth=false a caller without credentials gets 401 there too; /metrics likewise
//   needs system:monitoring, and kubectl reads it as Prometheus text with the server's counts;
// - an object whose bytes were damaged in the SQLite file while the server was down (gate
//   AllowUnsafeMalformedObjectDeletion on) reads as Kubernetes' corrupt-object errors in kubectl,
//   and `kubectl delete --raw …?ignoreStoreReadErrorWithClusterBreakingPotential=true` removes it
//   only once the user also holds the unsafe-delete-ignore-read-errors verb.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { networkInterfaces } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { issueCert } from '../../src/pki/certs.ts';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { until } from './support/until.ts';
import { requires } from '../support/requires.ts';
import { parsePrometheusText, find } from '../support/prom-text.ts';

const versions = kubectls();
const remote = Object.values(networkInterfaces()).flat().find(a => a && a.family === 'IPv4' && !a.internal)?.address;

interface Creds { cert: string; key: string }
interface Reply { status: number; body: string }

/** a GET from the non-loopback address, with a client certificate or none */
function get(port: number, path: string, creds?: Creds): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: remote, port, path, method: 'GET', rejectUnauthorized: false, ...creds }, res => {
      let body = '';
      res.on('data', d => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function clientCert(orch: OrchProcess, name: string, groups: string[] = []): Promise<Creds> {
  const pki = join(orch.dataDir, 'pki');
  const ca = { cert: await readFile(join(pki, 'ca.crt'), 'utf8'), key: await readFile(join(pki, 'ca.key'), 'utf8') };
  return issueCert(ca, { commonName: name, organizations: groups, days: 1, usage: 'client' });
}

async function kubeconfigFor(orch: OrchProcess, name: string, c: Creds): Promise<string> {
  const b = (s: string) => Buffer.from(s).toString('base64');
  const ca = await readFile(join(orch.dataDir, 'pki', 'ca.crt'), 'utf8');
  const path = join(orch.dataDir, `${name}.kubeconfig`);
  await writeFile(path, `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${orch.url}", certificate-authority-data: ${b(ca)} } }]
users: [{ name: ${name}, user: { client-certificate-data: ${b(c.cert)}, client-key-data: ${b(c.key)} } }]
contexts: [{ name: x, context: { cluster: c, user: ${name} } }]
current-context: x
`);
  return path;
}

const forbiddenPath = (user: string, path: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `forbidden: User "${user}" cannot get path "${path}"`, reason: 'Forbidden', details: {}, code: 403 }) + '\n';

describe('dry-run authorization and remote health checks', () => {
  let orch: OrchProcess;
  let closed: OrchProcess | undefined;
  let gated: OrchProcess | undefined;
  const gateArgs = ['--feature-gates=AllowUnsafeMalformedObjectDeletion=true'];
  let jane: Creds;
  let janeConfig: string;
  before(async () => {
    // the second server (no anonymous requests) starts alongside the first
    const all = await Promise.all([
      startOrch({ args: ['--bind-address=0.0.0.0'] }),
      remote ? startOrch({ args: ['--bind-address=0.0.0.0', '--anonymous-auth=false'] }) : Promise.resolve(undefined),
      versions.length ? startOrch({ args: gateArgs }) : Promise.resolve(undefined),
    ]);
    [orch, closed, gated] = all;
    jane = await clientCert(orch, 'jane');
    janeConfig = await kubeconfigFor(orch, 'jane', jane);
  });
  after(async () => {
    await Promise.all([orch, closed, gated].map(async o => { await o?.stop(); await o?.cleanup(); }));
  });

  describe('kubectl --dry-run=server', requires(versions.length === 0 && 'no kubectl binary found'), () => {
    const admin = (...args: string[]) => kubectl(versions[0]!.path, orch.kubeconfig, args);
    const ok = (r: Run) => { assert.equal(r.code, 0, r.stderr); return r.stdout; };
    before(async () => {
      ok(await admin('create', 'namespace', 'dry'));
      ok(await admin('-n', 'dry', 'create', 'configmap', 'cm1', '--from-literal=a=b'));
      ok(await admin('-n', 'dry', 'create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps'));
      ok(await admin('-n', 'dry', 'create', 'rolebinding', 'jane-read', '--role=cm-reader', '--user=jane'));
      await until('jane can get configmaps', async () => (await kubectl(versions[0]!.path, janeConfig, ['-n', 'dry', 'auth', 'can-i', 'get', 'configmaps'])).stdout === 'yes\n');
    });

    const manifest = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', namespace: 'dry' }, data: { a: 'changed' } });
    const deniedFor = (verb: string) => `configmaps "cm1" is forbidden: User "jane" cannot ${verb} resource "configmaps" in API group "" in the namespace "dry"`;

    test('without the verbs, each dry run is refused with the real request\'s 403 (every kubectl)', async () => {
      for (const v of versions) {
        const j = (args: string[], input?: string) => kubectl(v.path, janeConfig, ['-n', 'dry', ...args], input);
        const label = await j(['label', 'configmap', 'cm1', 'x=y', '--dry-run=server']);
        assert.equal(label.code, 1, v.label);
        assert.equal(label.stderr, `Error from server (Forbidden): ${deniedFor('patch')}\n`, v.label);
        const del = await j(['delete', 'configmap', 'cm1', '--dry-run=server']);
        assert.equal(del.stderr, `Error from server (Forbidden): ${deniedFor('delete')}\n`, v.label);
        const replace = await j(['replace', '--dry-run=server', '-f', '-'], manifest);
        assert.equal(replace.code, 1, v.label);
        assert.equal(replace.stderr, `Error from server (Forbidden): error when replacing "STDIN": ${deniedFor('update')}\n`, v.label);
      }
    });

    test('with the verbs granted, each dry run succeeds and changes nothing (every kubectl)', async () => {
      ok(await admin('-n', 'dry', 'create', 'role', 'cm-writer', '--verb=update,patch,delete', '--resource=configmaps'));
      ok(await admin('-n', 'dry', 'create', 'rolebinding', 'jane-write', '--role=cm-writer', '--user=jane'));
      await until('jane can delete configmaps', async () => (await kubectl(versions[0]!.path, janeConfig, ['-n', 'dry', 'auth', 'can-i', 'delete', 'configmaps'])).stdout === 'yes\n');
      for (const v of versions) {
        const j = (args: string[], input?: string) => kubectl(v.path, janeConfig, ['-n', 'dry', ...args], input);
        assert.equal(ok(await j(['label', 'configmap', 'cm1', 'x=y', '--dry-run=server'])), 'configmap/cm1 labeled (server dry run)\n', v.label);
        assert.equal(ok(await j(['replace', '--dry-run=server', '-f', '-'], manifest)), 'configmap/cm1 replaced (server dry run)\n', v.label);
        assert.equal(ok(await j(['delete', 'configmap', 'cm1', '--dry-run=server'])), 'configmap "cm1" deleted (server dry run)\n', v.label);
      }
      const after = JSON.parse(ok(await admin('-n', 'dry', 'get', 'configmap', 'cm1', '-o', 'json')));
      assert.deepEqual([after.metadata.labels, after.data], [undefined, { a: 'b' }]);
    });
  });

  describe('health checks from another host', requires(!remote && 'this machine has no non-loopback IPv4 address'), () => {
    test('anyone may read /livez, /readyz and /healthz, verbose and with exclude', async () => {
      for (const creds of [undefined, jane]) {
        for (const path of ['/livez', '/readyz', '/healthz']) assert.deepEqual(await get(orch.port, path, creds), { status: 200, body: 'ok' }, path);
        const verbose = await get(orch.port, '/readyz?verbose', creds);
        assert.equal(verbose.status, 200);
        assert.match(verbose.body, /^\[\+\]ping ok\n[^]*\[\+\]etcd ok\n[^]*readyz check passed\n$/);
        const excluded = await get(orch.port, '/livez?verbose&exclude=etcd', creds);
        assert.match(excluded.body, /\[\+\]etcd excluded: ok\n[^]*livez check passed\n$/);
        assert.equal((await get(orch.port, '/version', creds)).status, 200);
      }
    });

    test('a single check\'s path needs more than public-info-viewer: 403 for anyone else', async () => {
      assert.deepEqual(await get(orch.port, '/livez/ping'), { status: 403, body: forbiddenPath('system:anonymous', '/livez/ping') });
      assert.deepEqual(await get(orch.port, '/readyz/etcd', jane), { status: 403, body: forbiddenPath('jane', '/readyz/etcd') });
      const monitor = await clientCert(orch, 'prometheus', ['system:monitoring']);
      assert.deepEqual(await get(orch.port, '/readyz/etcd', monitor), { status: 200, body: 'ok' });
      const admin = await clientCert(orch, 'root', ['system:masters']);
      assert.deepEqual(await get(orch.port, '/livez/ping', admin), { status: 200, body: 'ok' });
    });

    test('/metrics: a non-resource URL for system:monitoring and administrators, in the Prometheus text format', async () => {
      assert.deepEqual(await get(orch.port, '/metrics'), { status: 403, body: forbiddenPath('system:anonymous', '/metrics') });
      assert.deepEqual(await get(orch.port, '/metrics', jane), { status: 403, body: forbiddenPath('jane', '/metrics') });
      const scrape = await get(orch.port, '/metrics', await clientCert(orch, 'prometheus', ['system:monitoring']));
      assert.equal(scrape.status, 200);
      // the controllers' own requests and the watches they hold are already counted
      const m = parsePrometheusText(scrape.body);
      assert.ok(find(m, 'apiserver_request_total', { verb: 'LIST', component: 'apiserver' }).length > 0);
      assert.ok(find(m, 'etcd_request_duration_seconds_count', { operation: 'create' }).length > 0);
      assert.ok(find(m, 'apiserver_storage_objects', { resource: 'namespaces' })[0]!.value >= 4);
      // kubectl reads it as administrators do
      if (!versions.length) return;
      const raw = await kubectl(versions[0]!.path, orch.kubeconfig, ['get', '--raw', '/metrics']);
      assert.equal(raw.code, 0, raw.stderr);
      assert.ok(find(parsePrometheusText(raw.stdout), 'apiserver_request_total', { verb: 'GET', subresource: '/readyz' }).length > 0);
    });

    test('with --anonymous-auth=false a caller without credentials gets 401; with a certificate, 200', async () => {
      const unauthorized = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }) + '\n';
      assert.deepEqual(await get(closed!.port, '/livez'), { status: 401, body: unauthorized });
      assert.deepEqual(await get(closed!.port, '/readyz', await clientCert(closed!, 'jane')), { status: 200, body: 'ok' });
    });
  });
  describe('corrupt objects and the unsafe delete', requires(versions.length === 0 && 'no kubectl binary found'), () => {
    test('kubectl reads the corrupt-object errors; the raw delete with the option needs the extra verb', async () => {
      const bin = versions[0]!.path;
      const admin = (o: OrchProcess, ...args: string[]) => kubectl(bin, o.kubeconfig, args);
      let o = gated!;
      for (const name of ['bad', 'fine']) assert.equal((await admin(o, '-n', 'default', 'create', 'configmap', name)).code, 0);
      assert.equal((await admin(o, '-n', 'default', 'create', 'role', 'cm-deleter', '--verb=get,list,delete', '--resource=configmaps')).code, 0);
      assert.equal((await admin(o, '-n', 'default', 'create', 'rolebinding', 'jane-delete', '--role=cm-deleter', '--user=jane')).code, 0);
      // the server down, the object's bytes replaced in its SQLite file, the server up again
      await o.stop();
      const db = new DatabaseSync(join(o.dataDir, 'orch.db'));
      db.prepare('UPDATE kv SET value = ? WHERE id = (SELECT id FROM live WHERE name = ?)').run(new TextEncoder().encode('\x00garbage'), '/registry/configmaps/default/bad');
      db.close();
      o = gated = await startOrch({ dataDir: o.dataDir, args: gateArgs });
      const janeCfg = await kubeconfigFor(o, 'jane', await clientCert(o, 'jane'));
      const unsafe = '/api/v1/namespaces/default/configmaps/bad?ignoreStoreReadErrorWithClusterBreakingPotential=true';
      for (const v of versions) {
        const get = await kubectl(v.path, o.kubeconfig, ['-n', 'default', 'get', 'configmap', 'bad']);
        assert.match(get.stderr, /^Error from server \(InternalError\): Internal error occurred: StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/default\/bad, ResourceVersion: 0, AdditionalErrorMsg: failed to decode the object stored at \/registry\/configmaps\/default\/bad: /, v.label);
        const list = await kubectl(v.path, o.kubeconfig, ['-n', 'default', 'get', 'configmaps']);
        assert.equal(list.stderr, 'Error from server (StoreReadError): failed to read one or more configmaps from the storage\n', v.label);
        const denied = await kubectl(v.path, janeCfg, ['delete', '--raw', unsafe]);
        assert.equal(denied.stderr, 'Error from server (Forbidden): configmaps "bad" is forbidden: not permitted to do "unsafe-delete-ignore-read-errors", reason: \n', v.label);
        const readable = await kubectl(v.path, o.kubeconfig, ['delete', '--raw', unsafe.replace('/bad?', '/fine?')]);
        assert.equal(readable.stderr, 'The configmaps "fine" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option\n', v.label);
      }
      assert.equal((await admin(o, '-n', 'default', 'create', 'role', 'cm-unsafe', '--verb=unsafe-delete-ignore-read-errors', '--resource=configmaps')).code, 0);
      assert.equal((await admin(o, '-n', 'default', 'create', 'rolebinding', 'jane-unsafe', '--role=cm-unsafe', '--user=jane')).code, 0);
      await until('jane may unsafe-delete', async () => (await kubectl(bin, janeCfg, ['-n', 'default', 'auth', 'can-i', 'unsafe-delete-ignore-read-errors', 'configmaps'])).stdout === 'yes\n');
      const done = await kubectl(versions[versions.length - 1]!.path, janeCfg, ['delete', '--raw', unsafe]);
      assert.equal(done.code, 0, done.stderr);
      assert.deepEqual(JSON.parse(done.stdout), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'bad', kind: 'configmaps' } });
      assert.equal((await admin(o, '-n', 'default', 'get', 'configmaps', '-o', 'name')).stdout, 'configmap/fine\nconfigmap/kube-root-ca.crt\n');
    });
  });
});
