// --token-auth-file: Kubernetes' CSV format.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, parseTokenFile, staticTokenAuthenticator } from '../../../../src/apiserver/authn/static-token.ts';

test('CSV: quoted fields with commas and doubled quotes, CRLF, leading spaces', () => {
  assert.deepEqual(parseCsv('a,b,c,"d,e"\r\n x,"y""z",w\n\n'), [['a', 'b', 'c', 'd,e'], ['x', 'y"z', 'w']]);
  assert.throws(() => parseCsv('a,"b'), /quoted-field/);
});

test('a token file names users with uid and groups', async () => {
  const users = parseTokenFile('\uFEFFtok1,jane,u-1,"dev,ops"\ntok2,bob,u-2\n,skipped,u-3\n', '/f.csv');
  assert.deepEqual(users.get('tok1'), { name: 'jane', uid: 'u-1', groups: ['dev', 'ops'] });
  assert.deepEqual(users.get('tok2'), { name: 'bob', uid: 'u-2', groups: [] });
  assert.equal(users.size, 2);
  const auth = staticTokenAuthenticator(users);
  assert.equal((await auth.authenticate('tok1', []))?.user.name, 'jane');
  assert.equal(await auth.authenticate('nope', []), undefined);
});

test('a record with fewer than three columns makes the file unusable, worded as kube-apiserver words it', () => {
  assert.throws(() => parseTokenFile('tok,jane\n', '/etc/tokens.csv'), { message: "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2" });
});
