// Readiness: a plugin whose policies are not read yet says so rather than skip them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readyWithin } from '../../../../../../src/apiserver/admission/plugins/validating-admission-policy/policy-source.ts';
import { admissionNotReady } from '../../../../../../src/apiserver/admission/plugins/validating-admission-policy/deny.ts';
import { createCatalog } from '../../../../../../src/schema/catalog.ts';
import { attributes } from './fixtures.ts';

test('ready once synced; not ready after the wait, refused in kube-apiserver\'s words', async () => {
  assert.equal(await readyWithin(Promise.resolve(), 50), true);
  assert.equal(await readyWithin(new Promise(() => {}), 20), false);
  const err = admissionNotReady(attributes(createCatalog().lookup('apps', 'v1', 'deployments')!));
  assert.equal(err.status.code, 403);
  assert.equal(err.message, 'deployments.apps "web" is forbidden: not yet ready to handle request');
});
