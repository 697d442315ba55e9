import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../../../../src/api/status.ts';
import { customResourceFinalizerWarnings, validateCustomResourceTypeMeta } from '../../../../src/schema/structural/index.ts';

test('apiVersion and kind must be the CRD\'s', () => {
  assert.deepEqual(validateCustomResourceTypeMeta({ apiVersion: 'example.com/v1', kind: 'Widget' }, 'example.com', 'v1', 'Widget'), []);
  assert.deepEqual(validateCustomResourceTypeMeta({ apiVersion: 'example.com/v2', kind: 'Gadget' }, 'example.com', 'v1', 'Widget').map(fieldErrorMessage), [
    'kind: Invalid value: "Gadget": must be Widget',
    'apiVersion: Invalid value: "example.com/v2": must be example.com/v1',
  ]);
});

// [finalizers now, finalizers before, warnings]
const cases: [string[], string[] | undefined, string[]][] = [
  [['example.com/cleanup', 'kubernetes', 'orphan'], undefined, []],
  [['cleanup'], undefined, ['metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers']],
  [['example.com'], undefined, ['metadata.finalizers: "example.com": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers']],
  [['cleanup', 'other'], ['cleanup'], ['metadata.finalizers: "other": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers']],
];

for (const [now, before, expected] of cases) {
  test(`finalizer warnings for ${now.join(',')}${before ? ` after ${before.join(',')}` : ''}`, () => {
    assert.deepEqual(customResourceFinalizerWarnings({ metadata: { finalizers: now } }, before ? { metadata: { finalizers: before } } : undefined), expected);
  });
}
