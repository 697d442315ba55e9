import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  everything, formatLabelSelector, labelSelectorFromObject, labelSelectorFromSet, matchesLabels, nothing,
} from '../../../../src/api/selectors/label.ts';
import { StatusError } from '../../../../src/api/status.ts';

function rejection(obj: unknown): string {
  try {
    labelSelectorFromObject(obj);
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    return e.message;
  }
  assert.fail('accepted');
}

test('matchLabels and matchExpressions become one sorted selector string', () => {
  const sel = labelSelectorFromObject({
    matchLabels: { tier: 'web', app: 'shop' },
    matchExpressions: [
      { key: 'env', operator: 'In', values: ['prod', 'dev'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'zone', operator: 'NotIn', values: ['b'] },
      { key: 'gpu', operator: 'Exists', values: [] },
    ],
  });
  assert.equal(formatLabelSelector(sel), 'app=shop,!canary,env in (dev,prod),gpu,tier=web,zone notin (b)');
  assert.equal(matchesLabels(sel, { app: 'shop', tier: 'web', env: 'dev', gpu: '1' }), true);
  assert.equal(matchesLabels(sel, { app: 'shop', tier: 'web', env: 'dev', gpu: '1', canary: 'y' }), false);
  assert.equal(matchesLabels(sel, { app: 'shop', tier: 'web', env: 'qa', gpu: '1' }), false);
  assert.equal(matchesLabels(sel, { app: 'shop', tier: 'web', env: 'dev', gpu: '1', zone: 'b' }), false);
});

test('the Scale selector example', () => {
  const sel = labelSelectorFromObject({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] });
  assert.equal(formatLabelSelector(sel), 'app=web,tier in (a,b)');
});

test('an empty selector matches everything; a missing one matches nothing', () => {
  const empty = labelSelectorFromObject({});
  assert.equal(empty.empty, true);
  assert.equal(matchesLabels(empty, { a: 'b' }), true);
  assert.equal(matchesLabels(empty, undefined), true);
  for (const missing of [undefined, null]) {
    const sel = labelSelectorFromObject(missing);
    assert.equal(sel, nothing);
    assert.equal(sel.empty, false);
    assert.equal(matchesLabels(sel, { a: 'b' }), false);
    assert.equal(matchesLabels(sel, undefined), false);
    assert.equal(formatLabelSelector(sel), '');
  }
});

test('invalid selectors are rejected with Kubernetes wording', () => {
  assert.equal(rejection({ matchExpressions: [{ key: 'env', operator: 'Foo' }] }), '"Foo" is not a valid label selector operator');
  assert.equal(rejection({ matchExpressions: [{ key: 'env', operator: 'In' }] }),
    "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty");
  assert.equal(rejection({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: [] }] }),
    "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
  assert.equal(rejection({ matchExpressions: [{ key: 'env', operator: 'Exists', values: ['a'] }] }),
    'values: Invalid value: ["a"]: values set must be empty for exists and does not exist');
  assert.match(rejection({ matchLabels: { '-bad': 'x' } }), /^key: Invalid value: "-bad": name part must consist of/);
  assert.match(rejection({ matchLabels: { app: 'bad value' } }), /^values\[0\]\[app\]: Invalid value: "bad value": a valid label must be/);
  // several problems in one expression aggregate in brackets
  assert.match(rejection({ matchExpressions: [{ key: 'k', operator: 'Exists', values: ['<x>'] }] }),
    /^\[values: Invalid value: \["\\u003cx\\u003e"\]: values set must be empty .*, values\[0\]\[k\]: Invalid value: "<x>": .*\]$/);
  assert.equal(rejection('app=web'), 'label selector must be an object');
});

test('values are matched as given and printed sorted', () => {
  const sel = labelSelectorFromObject({ matchExpressions: [{ key: 'k', operator: 'In', values: ['b', 'a', 'b'] }] });
  assert.deepEqual(sel.requirements[0]!.values, ['b', 'a', 'b']);
  assert.equal(formatLabelSelector(sel), 'k in (a,b,b)');
  assert.equal(matchesLabels(sel, { k: 'a' }), true);
});

test('plain label maps (ReplicationController selectors)', () => {
  const sel = labelSelectorFromSet({ b: '2', a: '1' });
  assert.equal(formatLabelSelector(sel), 'a=1,b=2');
  assert.equal(matchesLabels(sel, { a: '1', b: '2', c: '3' }), true);
  assert.equal(matchesLabels(sel, { a: '1' }), false);
  assert.equal(labelSelectorFromSet(undefined), everything);
  assert.equal(matchesLabels(labelSelectorFromSet({}), {}), true);
});
