// AlwaysAdmit admits; AlwaysDeny refuses every write, mutating and validating, in
// admission.NewForbidden's words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysAdmit, alwaysDeny } from '../../../../../src/apiserver/admission/plugins/always.ts';
import { StatusError } from '../../../../../src/api/status.ts';

const attrs = (over: Record<string, unknown> = {}) => ({ operation: 'CREATE', resource: { group: 'apps', resource: 'deployments' }, subresource: '', namespace: 'ns', name: 'web', object: { metadata: { name: 'web' } }, user: { name: 'u', groups: [] }, dryRun: false, warn() {}, annotate() {}, ...over }) as never;

test('AlwaysDeny: a 403 naming the object, from either phase; AlwaysAdmit lets it through', () => {
  const deny = alwaysDeny();
  for (const phase of [deny.admit!, deny.validate!]) {
    assert.throws(() => phase(attrs()), (e: unknown) => e instanceof StatusError && e.code === 403 && e.status.reason === 'Forbidden'
      && e.message === 'deployments.apps "web" is forbidden: admission control is denying all modifications');
  }
  // a create by generateName is named by its prefix, as NewForbidden names it
  assert.throws(() => deny.validate!(attrs({ name: '', object: { metadata: { generateName: 'web-' } } })), { message: 'deployments.apps "web-" is forbidden: admission control is denying all modifications' });
  const admit = alwaysAdmit();
  assert.doesNotThrow(() => { admit.admit!(attrs()); admit.validate!(attrs()); });
});
