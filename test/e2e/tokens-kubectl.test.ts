// Bearer tokens with real kubectl (1.33 and 1.27) against one `orch server` process: service
// account tokens from `kubectl create token`, a static token user bound to a namespaced Role
// (what it may and may not do, `auth can-i --list` and `auth whoami` exactly as kubectl prints
// them), bound tokens that die with their pod, bad tokens refused as a real cluster refuses them,
// and issuer discovery.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';
import { until } from './support/until.ts';

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

/** the last line kubectl printed on stderr (its `error: ...`), without klog's lines before it */
function lastError(r: Run): string {
  return r.stderr.trim().split('\n').pop()!;
}

const versions = kubectls();

function forbidden(r: Run, message: string): void {
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stderr, `Error from server (Forbidden): ${message}\n`);
}

/**
 * `kubectl auth can-i --list` for a user with `resourceRows` beside what every authenticated user
 * holds, and, for a service account, the issuer discovery paths: kubectl sorts and lays out the
 * rules itself, so this is what it prints against any server answering the same rules
 */
function canIList(resourceRows: string[], serviceAccount: boolean): string {
  const urls = [
    ...(serviceAccount ? ['/.well-known/openid-configuration/', '/.well-known/openid-configuration'] : []),
    '/api/*', '/api', '/apis/*', '/apis', '/healthz', '/healthz', '/livez', '/livez', '/openapi/*', '/openapi',
    ...(serviceAccount ? ['/openid/v1/jwks/', '/openid/v1/jwks'] : []),
    '/readyz', '/readyz', '/version/', '/version/', '/version', '/version',
  ];
  const width = Math.max(...urls.map(u => u.length + 2), 'Non-Resource URLs'.length) + 3;
  const row = (res: string, url: string, names: string, verbs: string) => `${res.padEnd(48)}${url.padEnd(width)}${names.padEnd(17)}${verbs}`;
  return [
    row('Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs'),
    row('selfsubjectreviews.authentication.k8s.io', '[]', '[]', '[create]'),
    row('selfsubjectaccessreviews.authorization.k8s.io', '[]', '[]', '[create]'),
    row('selfsubjectrulesreviews.authorization.k8s.io', '[]', '[]', '[create]'),
    ...resourceRows.map(r => { const [res, , , verbs] = r.split(/\s{2,}/); return row(res!, '[]', '[]', verbs!); }),
    ...urls.map(u => row('', `[${u}]`, '[]', '[get]')),
  ].join('\n') + '\n';
}

describe('bearer tokens with kubectl', requires(versions.length === 0 && 'no kubectl binary found'), () => {
  let orch: OrchProcess;
  /** a kubeconfig with the server and its CA but no credentials: every request carries --token */
  let tokenless: string;
  before(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'orch-e2e-tokens-'));
    const tokenFile = join(dataDir, 'tokens.csv');
    await writeFile(tokenFile, 'static-token-jane,jane,uid-jane,"dev,ops"\n');
    orch = await startOrch({ dataDir, args: ['--token-auth-file', tokenFile] });
    tokenless = join(dataDir, 'tokenless.kubeconfig');
    await writeFile(tokenless, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: orch.url, 'certificate-authority': join(dataDir, 'pki', 'ca.crt') } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      users: [{ name: 'u', user: {} }],
    }));
    const admin = versions[0]!.path;
    ok(await kubectl(admin, orch.kubeconfig, ['create', 'serviceaccount', 'builder']));
    // the static token user jane and team's default service account may read pods in team, nothing more
    ok(await kubectl(admin, orch.kubeconfig, ['create', 'namespace', 'team']));
    ok(await kubectl(admin, orch.kubeconfig, ['-n', 'team', 'create', 'secret', 'generic', 'kept', '--from-literal=k=v']));
    ok(await kubectl(admin, orch.kubeconfig, ['-n', 'team', 'create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']));
    ok(await kubectl(admin, orch.kubeconfig, ['-n', 'team', 'create', 'rolebinding', 'readers', '--role=pod-reader', '--user=jane', '--serviceaccount=team:default']));
    // the service account controller makes `default` a moment after start, as in any cluster
    await until('the default service accounts', async () => (await kubectl(admin, orch.kubeconfig, ['get', 'serviceaccount', 'default'])).code === 0 && (await kubectl(admin, orch.kubeconfig, ['-n', 'team', 'get', 'serviceaccount', 'default'])).code === 0, 10_000, 100);
    await until('jane may list pods in team', async () => (await kubectl(admin, tokenless, ['--token', 'static-token-jane', '-n', 'team', 'auth', 'can-i', 'list', 'pods'])).stdout === 'yes\n', 10_000, 100);
  });
  after(async () => { await orch?.stop(); await orch?.cleanup(); });

  for (const { label, path: bin } of versions) {
    test(`kubectl ${label}: create token default, then use it`, async () => {
      const token = ok(await kubectl(bin, orch.kubeconfig, ['create', 'token', 'default'])).trim();
      assert.match(token, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
      // the token alone (no certificate) is enough to talk to the server
      assert.match(ok(await kubectl(bin, tokenless, ['--token', token, 'api-versions'])), /^authentication\.k8s\.io\/v1$/m);
      const whoami = await kubectl(bin, tokenless, ['--token', token, 'auth', 'whoami', '-o', 'json']);
      if (label === '1.27') {
        // 1.27 asks for v1beta1 then v1alpha1 SelfSubjectReview, which current servers no longer serve
        assert.equal(whoami.code, 1);
        assert.match(whoami.stderr, /error: the selfsubjectreviews API is not enabled in the cluster/);
        return;
      }
      const info = JSON.parse(ok(whoami)).status.userInfo;
      assert.equal(info.username, 'system:serviceaccount:default:default');
      assert.deepEqual(info.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
      assert.match(info.extra['authentication.kubernetes.io/credential-id'][0], /^JTI=[0-9a-f-]{36}$/);
    });

    test(`kubectl ${label}: a token user bound to a namespaced Role: allowed and denied commands print what a real cluster prints`, async () => {
      const jane = (...args: string[]) => kubectl(bin, tokenless, ['--token', 'static-token-jane', ...args]);
      const allowed = await jane('-n', 'team', 'get', 'pods');
      assert.deepEqual([allowed.code, allowed.stdout, allowed.stderr], [0, '', 'No resources found in team namespace.\n']);
      const missing = await jane('-n', 'team', 'get', 'pod', 'nope');
      assert.deepEqual([missing.code, missing.stderr], [1, 'Error from server (NotFound): pods "nope" not found\n'], 'allowed to get: the pod is just not there');
      forbidden(await jane('-n', 'team', 'get', 'configmaps'), 'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "team"');
      forbidden(await jane('-n', 'default', 'get', 'pods'), 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"');
      forbidden(await jane('get', 'pods', '-A'), 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" at the cluster scope');
      forbidden(await jane('-n', 'team', 'run', 'x', '--image=busybox'), 'pods is forbidden: User "jane" cannot create resource "pods" in API group "" in the namespace "team"');
      forbidden(await jane('-n', 'team', 'delete', 'pod', 'nope'), 'pods "nope" is forbidden: User "jane" cannot delete resource "pods" in API group "" in the namespace "team"');
      forbidden(await jane('get', '--raw', '/.well-known/openid-configuration'), 'forbidden: User "jane" cannot get path "/.well-known/openid-configuration"');
      assert.equal((await jane('-n', 'team', 'auth', 'can-i', 'watch', 'pods')).stdout, 'yes\n');
      const no = await jane('-n', 'team', 'auth', 'can-i', 'create', 'pods');
      assert.deepEqual([no.code, no.stdout], [1, 'no\n']);
      // the Role's rule beside what every authenticated user has (system:basic-user, system:discovery, system:public-info-viewer)
      assert.equal(ok(await jane('-n', 'team', 'auth', 'can-i', '--list')), canIList(['pods                                            []                  []               [get list watch]'], false));
      const whoami = await jane('auth', 'whoami');
      if (label === '1.27') assert.equal(whoami.stderr, 'error: the selfsubjectreviews API is not enabled in the cluster\nenable APISelfSubjectReview feature gate and authentication.k8s.io/v1alpha1 or authentication.k8s.io/v1beta1 API\n');
      else assert.equal(ok(whoami), 'ATTRIBUTE   VALUE\nUsername    jane\nUID         uid-jane\nGroups      [dev ops system:authenticated]\n');
    });

    test(`kubectl ${label}: create token default in a namespace, then act as its service account`, async () => {
      const token = ok(await kubectl(bin, orch.kubeconfig, ['-n', 'team', 'create', 'token', 'default'])).trim();
      const sa = (...args: string[]) => kubectl(bin, tokenless, ['--token', token, ...args]);
      const allowed = await sa('-n', 'team', 'get', 'pods');
      assert.deepEqual([allowed.code, allowed.stderr], [0, 'No resources found in team namespace.\n']);
      forbidden(await sa('-n', 'team', 'get', 'secrets'), 'secrets is forbidden: User "system:serviceaccount:team:default" cannot list resource "secrets" in API group "" in the namespace "team"');
      forbidden(await sa('-n', 'default', 'get', 'pods'), 'pods is forbidden: User "system:serviceaccount:team:default" cannot list resource "pods" in API group "" in the namespace "default"');
      // every service account may read the issuer's discovery document (system:service-account-issuer-discovery)
      assert.equal(JSON.parse(ok(await sa('get', '--raw', '/.well-known/openid-configuration'))).jwks_uri.endsWith('/openid/v1/jwks'), true);
      assert.equal(ok(await sa('-n', 'team', 'auth', 'can-i', '--list')), canIList(['pods                                            []                                     []               [get list watch]'], true));
    });

    test(`kubectl ${label}: too short a --duration and an unknown account are refused in Kubernetes' words`, async () => {
      const short = await kubectl(bin, orch.kubeconfig, ['create', 'token', 'default', '--duration', '5m']);
      assert.equal(short.code, 1);
      assert.equal(lastError(short), 'error: failed to create token: TokenRequest.authentication.k8s.io "default" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes');
      const missing = await kubectl(bin, orch.kubeconfig, ['create', 'token', 'nobody']);
      assert.equal(lastError(missing), 'error: failed to create token: serviceaccounts "nobody" not found');
    });

    test(`kubectl ${label}: a static token user; a bad token is 401, never anonymous`, async () => {
      assert.match(ok(await kubectl(bin, tokenless, ['--token', 'static-token-jane', 'api-versions'])), /^v1$/m);
      if (label !== '1.27') {
        const info = JSON.parse(ok(await kubectl(bin, tokenless, ['--token', 'static-token-jane', 'auth', 'whoami', '-o', 'json']))).status.userInfo;
        assert.deepEqual(info, { username: 'jane', uid: 'uid-jane', groups: ['dev', 'ops', 'system:authenticated'] });
      }
      // discovery (not cached: a fresh cache directory) fails first, as against a real cluster
      const bad = await kubectl(bin, tokenless, ['--token', 'not-a-token', '--cache-dir', join(orch.dataDir, `cache-${label}`), 'get', 'pods']);
      assert.equal(bad.code, 1);
      assert.equal(lastError(bad), 'error: You must be logged in to the server (the server has asked for the client to provide credentials)');
      // a request past discovery gets the Status body's reason
      const raw = await kubectl(bin, tokenless, ['--token', 'not-a-token', 'get', '--raw', '/api/v1/namespaces/default/pods']);
      assert.equal(lastError(raw), 'error: You must be logged in to the server (Unauthorized)');
    });

    test(`kubectl ${label}: a token bound to a pod stops working once the pod is deleted`, async () => {
      const pod = `worker-${label.replace('.', '-')}`;
      ok(await kubectl(bin, orch.kubeconfig, ['run', pod, '--image', 'busybox', '--overrides', '{"spec":{"serviceAccountName":"builder"}}']));
      const token = ok(await kubectl(bin, orch.kubeconfig, ['create', 'token', 'builder', '--bound-object-kind', 'Pod', '--bound-object-name', pod, '--duration', '10m'])).trim();
      ok(await kubectl(bin, orch.kubeconfig, ['delete', 'pod', pod, '--grace-period', '0', '--force']));
      const after = await kubectl(bin, tokenless, ['--token', token, 'api-versions']);
      assert.equal(after.code, 1);
      assert.match(after.stderr, /the server has asked for the client to provide credentials/);
    });
  }

  /** a raw request, with a bearer token or none: kubectl with no credentials at all prompts for a user name */
  const call = async (method: string, path: string, opts: { token?: string; accept?: string; body?: string } = {}) => {
    const ca = await readFile(join(orch.dataDir, 'pki', 'ca.crt'));
    return new Promise<{ status: number; json: any }>((resolve, reject) => {
      const headers: Record<string, string> = { accept: opts.accept ?? 'application/json' };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.body) headers['content-type'] = 'application/json';
      const req = https.request(`${orch.url}${path}`, { method, ca, headers }, res => {
        let text = '';
        res.on('data', d => { text += d; });
        res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(opts.body);
    });
  };
  const refused = async (r: Promise<{ status: number; json: any }>, message: string) => {
    const { status, json } = await r;
    assert.deepEqual([status, json.kind, json.reason, json.message], [403, 'Status', 'Forbidden', message]);
  };

  test('no credentials: system:anonymous, in system:unauthenticated only (public info yes, discovery and whoami no)', async () => {
    assert.equal((await call('GET', '/version')).json.major, '1');
    await refused(call('GET', '/api'), 'forbidden: User "system:anonymous" cannot get path "/api"');
    await refused(call('GET', '/.well-known/openid-configuration'), 'forbidden: User "system:anonymous" cannot get path "/.well-known/openid-configuration"');
    await refused(call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }) }), 'selfsubjectreviews.authentication.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope');
  });

  test('a user who may not read secrets learns nothing of them: same refusal whether one exists, in every view', async () => {
    const token = 'static-token-jane';
    const secrets = '/api/v1/namespaces/team/secrets';
    const cannot = (verb: string, name?: string) => `secrets${name ? ` "${name}"` : ''} is forbidden: User "jane" cannot ${verb} resource "secrets" in API group "" in the namespace "team"`;
    await refused(call('GET', `${secrets}/kept`, { token }), cannot('get', 'kept'));
    await refused(call('GET', `${secrets}/missing`, { token }), cannot('get', 'missing'));
    await refused(call('GET', `${secrets}/kept`, { token, accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' }), cannot('get', 'kept'));
    await refused(call('GET', secrets, { token, accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' }), cannot('list'));
    await refused(call('GET', `${secrets}?watch=true`, { token }), cannot('watch'));
    // a list narrowed to one name is checked for that name
    await refused(call('GET', `${secrets}?fieldSelector=metadata.name%3Dkept`, { token }), cannot('list', 'kept'));
    await refused(call('DELETE', `${secrets}/missing`, { token }), cannot('delete', 'missing'));
  });

  test('issuer discovery: openid-configuration and the key set', async () => {
    const bin = versions[0]!.path;
    const config = JSON.parse(ok(await kubectl(bin, orch.kubeconfig, ['get', '--raw', '/.well-known/openid-configuration'])));
    assert.equal(config.issuer, 'https://kubernetes.default.svc.cluster.local');
    assert.equal(config.jwks_uri, `${orch.url}/openid/v1/jwks`);
    const keys = JSON.parse(ok(await kubectl(bin, orch.kubeconfig, ['get', '--raw', '/openid/v1/jwks']))).keys;
    assert.equal(keys.length, 1);
    assert.equal(keys[0].alg, 'RS256');
  });
});
