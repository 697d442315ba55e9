import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregatedRules } from '../../../src/controllers/clusterrole-aggregation.ts';

test('an aggregated role gathers the rules of the roles its selectors pick, in name order, without repeats or itself', () => {
  const r = (name: string, labels: Record<string, string>, rules: unknown[]) => ({ metadata: { name, labels }, rules });
  const view = { metadata: { name: 'view', labels: { 'x/agg-edit': 'true' } }, rules: [{ old: 1 }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'x/agg-view': 'true' } }, { matchExpressions: [{ key: 'extra', operator: 'Exists' }] }] } };
  const all = [view, r('b-part', { 'x/agg-view': 'true' }, [{ b: 1 }, { shared: 1 }]), r('a-part', { 'x/agg-view': 'true' }, [{ a: 1 }, { shared: 1 }]), r('other', {}, [{ no: 1 }]), r('c', { extra: '' }, [{ c: 1 }])];
  assert.deepEqual(aggregatedRules(view, all), [{ a: 1 }, { shared: 1 }, { b: 1 }, { c: 1 }]);
  assert.deepEqual(aggregatedRules({ ...view, aggregationRule: { clusterRoleSelectors: [] } }, all), []);
});
