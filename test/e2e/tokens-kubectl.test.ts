// Bearer tokens with real kubectl (1.33 and 1.27) against one `orch server` process: service
// account tokens from `kubectl create token`, a static token user, bound tokens that die with
// their pod, bad tokens refused as a real cluster refuses them, and issuer discovery.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
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
    // the service account controller makes `default` a moment after start, as in any cluster
    await until('the default service account', async () => (await kubectl(admin, orch.kubeconfig, ['get', 'serviceaccount', 'default'])).code === 0, 10_000, 100);
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
