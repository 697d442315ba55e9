import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authConfigHash, locationMatches, secretsKeyring, type PullSecret } from '../../../../src/agent/images/keyring.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const dockerConfigJson = (name: string, uid: string, auths: Record<string, unknown>): PullSecret =>
  ({ metadata: { name, namespace: 'ns1', uid }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(JSON.stringify({ auths })) } });

test('the credential hash is the kubelet\'s: SHA-256 of the AuthConfig as Go writes it', () => {
  // the value the kubelet's own secrets test expects for user/password
  assert.equal(authConfigHash({ username: 'user', password: 'password' }), 'a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d');
  assert.equal(authConfigHash({ username: 'user', password: 'password', email: '' }), authConfigHash({ username: 'user', password: 'password' }), 'empty fields are left out');
});

test('dockerconfigjson and dockercfg secrets: `auth` decoded, the secret\'s coordinates kept, most specific location first', () => {
  const ring = secretsKeyring([
    dockerConfigJson('s1', 'uid1', { 'test.registry.io': { auth: b64('user:password') }, 'https://test.registry.io/team/': { username: 'team', password: 'pw' } }),
    { metadata: { name: 's2', namespace: 'ns1', uid: 'uid2' }, type: 'kubernetes.io/dockercfg', data: { '.dockercfg': b64(JSON.stringify({ '*.example.com': { username: 'glob', password: 'x' } })) } },
    // an Opaque secret holds no registry credentials
    { metadata: { name: 's3', namespace: 'ns1', uid: 'uid3' }, type: 'Opaque', data: { '.dockerconfigjson': b64('{}') } },
  ]);
  const team = ring.lookup('test.registry.io/team/app');
  assert.deepEqual(team.map(t => t.auth.username), ['team', 'user']);
  assert.deepEqual(team[1], { auth: { username: 'user', password: 'password', email: '' }, hash: 'a55436fc140d516560d072c5fe8700385ce9f41629abf65c1edcbcb39fac691d', secret: { uid: 'uid1', namespace: 'ns1', name: 's1' } });
  assert.deepEqual(ring.lookup('test.registry.io/other').map(t => t.auth.username), ['user']);
  assert.deepEqual(ring.lookup('registry.example.com/app').map(t => t.secret?.name), ['s2']);
  assert.deepEqual(ring.lookup('a.b.example.com/app'), [], 'a glob covers one host label');
  assert.deepEqual(ring.lookup('docker.io/library/busybox'), []);
  assert.throws(() => secretsKeyring([dockerConfigJson('bad', 'u', { 'r.io': { auth: b64('nocolon') } })]), /unable to parse auth field, must be formatted as base64\(username:password\)/);
});

test('Docker Hub: credentials for index.docker.io serve docker.io repositories', () => {
  const ring = secretsKeyring([dockerConfigJson('hub', 'h', { 'https://index.docker.io/v1/': { username: 'me', password: 'pw' } })]);
  assert.deepEqual(ring.lookup('docker.io/library/busybox').map(t => t.auth.username), ['me']);
  assert.deepEqual(ring.lookup('quay.io/x/y'), []);
});

test('location matching: ports, path prefixes and host globs as the kubelet compares them', () => {
  assert.equal(locationMatches('reg.io:5000', 'reg.io:5000/app'), true);
  assert.equal(locationMatches('reg.io:5000', 'reg.io/app'), false);
  assert.equal(locationMatches('reg.io/team', 'reg.io/team/app'), true);
  assert.equal(locationMatches('reg.io/team', 'reg.io/other/app'), false);
  assert.equal(locationMatches('*.reg.io', 'eu.reg.io/app'), true);
  assert.equal(locationMatches('*.reg.io', 'reg.io/app'), false);
  assert.equal(locationMatches('r?g.io', 'reg.io/app'), true);
});
