// Service account JWTs: the claims as kube-apiserver writes them, and what makes one invalid
// (expiry, audience, signer, issuer, a bound object gone or replaced).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { createTokenIssuer, serviceAccountTokenAuthenticator, type BoundResource } from '../../../../src/apiserver/authn/service-account-token.ts';
import { keyId, loadServiceAccountKeys, type ServiceAccountKeys } from '../../../../src/apiserver/authn/service-account-keys.ts';
import { createOidcDiscovery } from '../../../../src/apiserver/authn/oidc-discovery.ts';
import type { KubeObject } from '../../../../src/api/object.ts';

const iss = 'https://kubernetes.default.svc.cluster.local';
const t0 = new Date('2026-06-01T00:00:00Z');
let keys: ServiceAccountKeys;
let dir: string;
const objects = new Map<string, KubeObject>();
const obj = (resource: BoundResource, ns: string | undefined, name: string, uid: string, extra: Record<string, unknown> = {}) =>
  objects.set(`${resource}/${ns ?? ''}/${name}`, { metadata: { name, namespace: ns, uid, ...extra } } as KubeObject);

function validator(now = t0, audiences = [iss], k = keys) {
  return serviceAccountTokenAuthenticator({ keys: k, issuers: [iss], apiAudiences: audiences, now: () => now, get: async (r, ns, n) => objects.get(`${r}/${ns ?? ''}/${n}`) });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tokens-sa-'));
  keys = await loadServiceAccountKeys({ dir });
});
after(() => rm(dir, { recursive: true, force: true }));

test('the key is made once and read back: tokens outlive a restart', async () => {
  const again = await loadServiceAccountKeys({ dir });
  assert.equal(again.signing.kid, keys.signing.kid);
  assert.equal(keys.signing.alg, 'RS256');
  assert.match(await readFile(join(dir, 'sa.pub'), 'utf8'), /BEGIN PUBLIC KEY/);
});

test('a pod-bound token carries exactly the claims kube-apiserver issues, and names the service account', async () => {
  objects.clear();
  obj('serviceaccounts', 'ns', 'sa', 'sa-uid'); obj('pods', 'ns', 'p', 'pod-uid'); obj('nodes', undefined, 'n1', 'node-uid');
  const { token, expiresAt } = await createTokenIssuer(keys, iss).issue({ namespace: 'ns', serviceAccount: { name: 'sa', uid: 'sa-uid' }, audiences: [iss], expirationSeconds: 3600, pod: { name: 'p', uid: 'pod-uid' }, node: { name: 'n1', uid: 'node-uid' }, now: t0 });
  const iat = t0.getTime() / 1000;
  assert.deepEqual(decodeProtectedHeader(token), { alg: 'RS256', kid: keys.signing.kid });
  const claims = decodeJwt(token);
  assert.deepEqual(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  assert.deepEqual({ ...claims, jti: undefined }, {
    aud: [iss], exp: iat + 3600, iat, iss, jti: undefined, nbf: iat, sub: 'system:serviceaccount:ns:sa',
    'kubernetes.io': { namespace: 'ns', node: { name: 'n1', uid: 'node-uid' }, pod: { name: 'p', uid: 'pod-uid' }, serviceaccount: { name: 'sa', uid: 'sa-uid' } },
  });
  assert.equal(expiresAt.getTime(), t0.getTime() + 3600_000);
  const r = await validator().authenticate(token, []);
  assert.deepEqual(r?.user, {
    name: 'system:serviceaccount:ns:sa', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
    extra: {
      'authentication.kubernetes.io/pod-name': ['p'], 'authentication.kubernetes.io/pod-uid': ['pod-uid'],
      'authentication.kubernetes.io/node-name': ['n1'], 'authentication.kubernetes.io/node-uid': ['node-uid'],
      'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`],
    },
  });
  assert.deepEqual(r?.audiences, [iss]);
});

test('deleting or replacing a bound object invalidates the token; one being deleted keeps it for a minute', async () => {
  objects.clear();
  obj('serviceaccounts', 'ns', 'sa', 'sa-uid'); obj('pods', 'ns', 'p', 'pod-uid');
  const { token } = await createTokenIssuer(keys, iss).issue({ namespace: 'ns', serviceAccount: { name: 'sa', uid: 'sa-uid' }, audiences: [iss], expirationSeconds: 3600, pod: { name: 'p', uid: 'pod-uid' }, now: t0 });
  assert.ok(await validator().authenticate(token, []));
  obj('pods', 'ns', 'p', 'pod-uid', { deletionTimestamp: '2026-05-31T23:59:30Z' });
  assert.ok(await validator().authenticate(token, []), 'deleted 30 s ago: still valid');
  obj('pods', 'ns', 'p', 'pod-uid', { deletionTimestamp: '2026-05-31T23:58:00Z' });
  await assert.rejects(validator().authenticate(token, []), { message: 'service account token has been invalidated' });
  obj('pods', 'ns', 'p', 'other-uid');
  await assert.rejects(validator().authenticate(token, []), { message: 'pod UID (other-uid) does not match claim (pod-uid)' });
  objects.delete('pods/ns/p');
  await assert.rejects(validator().authenticate(token, []), { message: 'service account token has been invalidated' });
  obj('pods', 'ns', 'p', 'pod-uid');
  objects.delete('serviceaccounts/ns/sa');
  await assert.rejects(validator().authenticate(token, []), { message: 'service account token has been invalidated' });
});

test('expiry (with a minute of leeway), not-before, audiences, signer and issuer', async () => {
  objects.clear();
  obj('serviceaccounts', 'ns', 'sa', 'sa-uid');
  const issue = (audiences = [iss], k = keys, issuer = iss) => createTokenIssuer(k, issuer).issue({ namespace: 'ns', serviceAccount: { name: 'sa', uid: 'sa-uid' }, audiences, expirationSeconds: 600, now: t0 }).then(r => r.token);
  const token = await issue();
  assert.ok(await validator(new Date(t0.getTime() + 650_000)).authenticate(token, []));
  await assert.rejects(validator(new Date(t0.getTime() + 661_000)).authenticate(token, []), { message: 'service account token has expired' });
  await assert.rejects(validator(new Date(t0.getTime() - 120_000)).authenticate(token, []), /not valid yet|issued in the future/);
  const vault = await issue(['vault']);
  await assert.rejects(validator().authenticate(vault, []), { message: `token audiences ["vault"] is invalid for the target audiences ["${iss}"]` });
  assert.deepEqual((await validator().authenticate(vault, ['vault', 'other']))?.audiences, ['vault']);
  await mkdir(join(dir, 'other'));
  const other = await loadServiceAccountKeys({ dir: join(dir, 'other') });
  await assert.rejects(validator().authenticate(await issue([iss], other), []), /invalid bearer token/);
  assert.equal(await validator().authenticate(await issue([iss], keys, 'https://elsewhere'), []), undefined, 'another issuer: not ours');
  assert.equal(await validator().authenticate('abcdef.0123456789abcdef', []), undefined, 'not a JWT');
});

test('ECDSA signing keys and further verification keys from --service-account-key-file', async () => {
  objects.clear();
  obj('serviceaccounts', 'ns', 'sa', 'sa-uid');
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ecFile = join(dir, 'ec.key');
  await writeFile(ecFile, ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
  const ecKeys = await loadServiceAccountKeys({ dir, signingKeyFile: ecFile });
  assert.equal(ecKeys.signing.alg, 'ES256');
  assert.equal(ecKeys.signing.kid, keyId(ec.publicKey));
  const { token } = await createTokenIssuer(ecKeys, iss).issue({ namespace: 'ns', serviceAccount: { name: 'sa', uid: 'sa-uid' }, audiences: [iss], expirationSeconds: 600, now: t0 });
  assert.equal(decodeProtectedHeader(token).alg, 'ES256');
  await assert.rejects(validator().authenticate(token, []), /invalid bearer token/);
  const pubFile = join(dir, 'ec.pub');
  await writeFile(pubFile, ec.publicKey.export({ type: 'spki', format: 'pem' }) as string);
  const both = await loadServiceAccountKeys({ dir, keyFiles: [pubFile] });
  assert.equal(both.verifying.length, 2);
  assert.ok(await validator(t0, [iss], both).authenticate(token, []));
  const doc = createOidcDiscovery(both, iss)!;
  const config = JSON.parse(doc.serve('/.well-known/openid-configuration', '10.0.0.1:6443')!.body);
  assert.deepEqual(config, { issuer: iss, jwks_uri: 'https://10.0.0.1:6443/openid/v1/jwks', response_types_supported: ['id_token'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256', 'ES256'] });
  const jwks = doc.serve('/openid/v1/jwks', 'x')!;
  assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
  assert.deepEqual(JSON.parse(jwks.body).keys.map((k: { kid: string; alg: string; use: string }) => [k.kid, k.alg, k.use]), both.verifying.map(k => [k.kid, k.alg, 'sig']));
  assert.equal(createOidcDiscovery(both, 'kubernetes/serviceaccount'), undefined, 'no discovery for an issuer that is not an https URL');
});

test('tokens signed with node:crypto verify with jose for every key kind (RS256, ES256/384/512)', async () => {
  for (const [kind, opts, alg] of [['rsa', { modulusLength: 2048 }, 'RS256'], ['ec', { namedCurve: 'prime256v1' }, 'ES256'], ['ec', { namedCurve: 'secp384r1' }, 'ES384'], ['ec', { namedCurve: 'secp521r1' }, 'ES512']] as const) {
    const pair = generateKeyPairSync(kind as 'ec', opts as { namedCurve: string });
    const file = join(dir, `${alg}.key`);
    await writeFile(file, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const k = await loadServiceAccountKeys({ dir, signingKeyFile: file });
    assert.equal(k.signing.alg, alg);
    const { token } = await createTokenIssuer(k, iss).issue({ namespace: 'ns', serviceAccount: { name: 'sa', uid: 'sa-uid' }, audiences: [iss], expirationSeconds: 600, now: t0 });
    assert.deepEqual(decodeProtectedHeader(token), { alg, kid: keyId(pair.publicKey) });
    const pub = await importSPKI(pair.publicKey.export({ type: 'spki', format: 'pem' }) as string, alg);
    const { payload } = await jwtVerify(token, pub, { currentDate: t0, issuer: iss, audience: iss, algorithms: [alg] });
    assert.equal(payload.sub, 'system:serviceaccount:ns:sa');
  }
});
