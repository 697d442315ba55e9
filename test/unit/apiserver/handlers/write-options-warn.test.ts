// The write options the handlers give the registry carry `warn`, which puts a strategy's
// warning into the response's Warning header once (a write retried on a conflict validates,
// and warns, again).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admission } from '../../../../src/apiserver/handlers/write-options.ts';
import type { RequestContext } from '../../../../src/apiserver/context.ts';
import type { HandlerDeps } from '../../../../src/apiserver/handlers/deps.ts';

test('warn pushes into ctx.warnings without repeats, after what the request already said', () => {
  const ctx = { warnings: ['unknown field "spec.x"'], query: new URLSearchParams(), headers: {} } as unknown as RequestContext;
  const opts = admission(ctx, {} as HandlerDeps, 'CreateOptions', false);
  opts.warn!('spec.volumes[0].gitRepo: deprecated in v1.11');
  opts.warn!('spec.volumes[0].gitRepo: deprecated in v1.11');
  opts.warn!('unknown field "spec.x"');
  assert.deepEqual(ctx.warnings, ['unknown field "spec.x"', 'spec.volumes[0].gitRepo: deprecated in v1.11']);
});
