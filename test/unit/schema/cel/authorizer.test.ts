// Kubernetes' CEL authorizer library, backed by a callback.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from './eval.ts';
import type { AuthorizationCheck, CelAuthorizer } from '../../../../src/schema/cel/authorizer.ts';

function recording(allow: (c: AuthorizationCheck) => boolean): { asked: AuthorizationCheck[]; a: CelAuthorizer } {
  const asked: AuthorizationCheck[] = [];
  return { asked, a: { check(c) { asked.push(c); return allow(c) ? { decision: 'allow', reason: 'ok' } : { decision: 'no-opinion', reason: 'no rule' }; } } };
}

test('resource checks carry group, resource, subresource, namespace, name and verb', () => {
  const { asked, a } = recording(c => c.resource === 'deployments');
  assert.equal(evaluate("authorizer.group('apps').resource('deployments').subresource('scale').namespace('dev').name('web').check('update').allowed()", {}, a), true);
  assert.deepEqual(asked[0], { verb: 'update', isResourceRequest: true, path: '', apiGroup: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'dev', name: 'web' });
  assert.equal(evaluate("authorizer.group('').resource('secrets').check('get').allowed()", {}, a), false);
  assert.equal(evaluate("authorizer.group('').resource('secrets').check('get').reason()", {}, a), 'no rule');
});

test('path checks, service accounts and the request resource', () => {
  const { asked, a } = recording(() => true);
  assert.equal(evaluate("authorizer.path('/healthz').check('get').allowed()", {}, a), true);
  assert.deepEqual(asked[0], { verb: 'get', isResourceRequest: false, path: '/healthz', apiGroup: '', resource: '', subresource: '', namespace: '', name: '' });
  evaluate("authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('list').allowed()", {}, a);
  assert.deepEqual(asked[1]!.serviceAccount, { namespace: 'ns', name: 'sa' });
  evaluate("authorizer.requestResource.check('delete').allowed()", {}, a, { group: 'apps', resource: 'deployments', subresource: '', namespace: 'd', name: 'x' });
  assert.equal(asked[2]!.resource, 'deployments');
  assert.equal(asked[2]!.name, 'x');
});

test('an authorizer that fails gives an errored decision', () => {
  const a: CelAuthorizer = { check() { throw new Error('webhook down'); } };
  assert.equal(evaluate("authorizer.path('/x').check('get').errored()", {}, a), true);
  assert.equal(evaluate("authorizer.path('/x').check('get').error()", {}, a), 'webhook down');
  assert.equal(evaluate("authorizer.path('/x').check('get').allowed()", {}, a), false);
});
