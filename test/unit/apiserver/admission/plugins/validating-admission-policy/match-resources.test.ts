// Which requests matchConstraints and matchResources select.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../../../src/api/object.ts';
import { matchesResources, type MatchContext, type NamedRule } from '../../../../../../src/apiserver/admission/plugins/validating-admission-policy/match-resources.ts';
import { createCatalog } from '../../../../../../src/schema/catalog.ts';
import { attributes } from './fixtures.ts';

const catalog = createCatalog();
const ctx: MatchContext = { catalog, namespaceLabels: async ns => (ns === 'dev' ? { env: 'test' } : undefined) };
const info = (group: string, version: string, resource: string) => catalog.lookup(group, version, resource)!;
const rule = (r: Partial<NamedRule>): NamedRule => ({ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'], ...r });
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' } } as KubeObject;

test('resource patterns: *, */*, x/*, */status and plain names', async () => {
  const pods = info('', 'v1', 'pods');
  const m = async (resources: string[], subresource = '') => matchesResources({ resourceRules: [rule({ resources })] }, attributes(pods, { subresource, object: pod }), ctx, true);
  assert.equal(await m(['*']), true);
  assert.equal(await m(['*'], 'status'), false);
  assert.equal(await m(['*/*'], 'status'), true);
  assert.equal(await m(['pods/*'], 'exec'), true);
  assert.equal(await m(['*/status'], 'status'), true);
  assert.equal(await m(['pods']), true);
  assert.equal(await m(['pods'], 'status'), false);
  assert.equal(await m(['deployments']), false);
});

test('operations, scope and resourceNames', async () => {
  const pods = info('', 'v1', 'pods');
  const a = attributes(pods, { object: pod });
  assert.equal(await matchesResources({ resourceRules: [rule({ operations: ['UPDATE'] })] }, a, ctx, true), false);
  assert.equal(await matchesResources({ resourceRules: [rule({ scope: 'Cluster' })] }, a, ctx, true), false);
  assert.equal(await matchesResources({ resourceRules: [rule({ scope: 'Namespaced' })] }, a, ctx, true), true);
  assert.equal(await matchesResources({ resourceRules: [rule({ resourceNames: ['other'] })] }, a, ctx, true), false);
  assert.equal(await matchesResources({ resourceRules: [rule({ resourceNames: ['web'] })] }, a, ctx, true), true);
  // a policy without rules selects nothing; a binding without matchResources narrows nothing
  assert.equal(await matchesResources({}, a, ctx, true), false);
  assert.equal(await matchesResources(undefined, a, ctx, false), true);
});

test('matchPolicy: Equivalent matches a rule naming another served version, Exact does not', async () => {
  const hpa = info('autoscaling', 'v2', 'horizontalpodautoscalers');
  const a = attributes(hpa, { object: { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' } } as KubeObject });
  const rules = [rule({ apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] })];
  assert.equal(await matchesResources({ resourceRules: rules }, a, ctx, true), true);
  assert.equal(await matchesResources({ resourceRules: rules, matchPolicy: 'Exact' }, a, ctx, true), false);
});

test('namespace selectors read the namespace, or a Namespace\'s own labels; cluster-scoped objects always match', async () => {
  const sel = { resourceRules: [rule({})], namespaceSelector: { matchLabels: { env: 'test' } } };
  assert.equal(await matchesResources(sel, attributes(info('', 'v1', 'pods'), { object: pod }), ctx, true), true);
  assert.equal(await matchesResources(sel, attributes(info('', 'v1', 'pods'), { namespace: 'prod', object: pod }), ctx, true), false);
  const ns = (labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels } }) as KubeObject;
  assert.equal(await matchesResources(sel, attributes(info('', 'v1', 'namespaces'), { namespace: '', name: 'n', object: ns({ env: 'test' }) }), ctx, true), true);
  assert.equal(await matchesResources(sel, attributes(info('', 'v1', 'namespaces'), { namespace: '', name: 'n', object: ns({}) }), ctx, true), false);
  assert.equal(await matchesResources(sel, attributes(info('', 'v1', 'nodes'), { namespace: '', object: pod }), ctx, true), true);
});
