import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extraHeaderName, proxiedHeaders } from '../../../../src/apiserver/aggregator/identity.ts';

test('the authorized user goes in the front-proxy headers; the client\'s credentials and identity headers never pass', () => {
  const out = proxiedHeaders({
    ':path': '/apis/g/v', accept: 'application/json', authorization: 'Bearer secret', 'impersonate-user': 'alice',
    'x-remote-user': 'system:admin', 'x-remote-group': 'system:masters', 'x-remote-extra-scopes': 'x', connection: 'keep-alive', host: 'orch', 'user-agent': 'kubectl',
  }, { name: 'alice', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'], 'example.com/team': ['blue'], empty: [] } });
  assert.deepEqual(out, {
    accept: 'application/json', 'user-agent': 'kubectl',
    'X-Remote-User': 'alice', 'X-Remote-Group': ['dev', 'system:authenticated'],
    'X-Remote-Extra-scopes': ['a', 'b'], 'X-Remote-Extra-example.com%2Fteam': ['blue'],
  });
});

test('extra keys are percent-encoded into the header name', () => {
  assert.equal(extraHeaderName('authentication.kubernetes.io/pod-name'), 'X-Remote-Extra-authentication.kubernetes.io%2Fpod-name');
  assert.equal(extraHeaderName("a b!*"), 'X-Remote-Extra-a%20b%21%2A');
});
