// --feature-gates as component-base parses it, and the gates' effective values.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiServerFeatureGates, featureGates, parseFeatureGates, type FeatureSpec } from '../../../src/api/feature-gates.ts';
import { readFeatureGates } from '../../../src/cli/feature-gates-flag.ts';
import { UsageError } from '../../../src/cli/command.ts';

test('Name=bool pairs, spaces trimmed, empty items skipped, Go booleans', () => {
  assert.deepEqual(parseFeatureGates(' ShardedListAndWatch = true ,, CBORServingAndStorage=0,APIResponseCompression=F', apiServerFeatureGates),
    { ShardedListAndWatch: true, CBORServingAndStorage: false, APIResponseCompression: false });
  assert.deepEqual(parseFeatureGates('', apiServerFeatureGates), {});
});

test('refusals in component-base\'s words', () => {
  assert.throws(() => parseFeatureGates('Foo=true', apiServerFeatureGates), { message: 'unrecognized feature gate: Foo' });
  assert.throws(() => parseFeatureGates('ShardedListAndWatch', apiServerFeatureGates), { message: 'missing bool value for ShardedListAndWatch' });
  assert.throws(() => parseFeatureGates('ShardedListAndWatch=yes', apiServerFeatureGates), { message: 'invalid value of ShardedListAndWatch=yes, err: strconv.ParseBool: parsing "yes": invalid syntax' });
  const locked: Record<string, FeatureSpec> = { Done: { default: true, stage: 'GA', lockToDefault: true } };
  assert.throws(() => parseFeatureGates('Done=false', locked), { message: 'cannot set feature gate Done to false, feature is locked to true' });
  assert.throws(() => readFeatureGates('Foo=true', apiServerFeatureGates), (e: unknown) => e instanceof UsageError && e.message === 'invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo');
});

test('effective values: defaults, then AllAlpha/AllBeta, then gates named on their own', () => {
  assert.deepEqual(featureGates({}, apiServerFeatureGates).effective(), { AllowUnsafeMalformedObjectDeletion: false, APIResponseCompression: true, CBORServingAndStorage: false, ShardedListAndWatch: false });
  const g = featureGates({ AllAlpha: true, CBORServingAndStorage: false, AllBeta: false }, apiServerFeatureGates);
  assert.deepEqual(g.effective(), { AllowUnsafeMalformedObjectDeletion: true, APIResponseCompression: false, CBORServingAndStorage: false, ShardedListAndWatch: true });
  assert.equal(g.enabled('Unknown'), false);
});

test('every long-running command takes --feature-gates', async () => {
  const { serverCommand } = await import('../../../src/cli/server-command.ts');
  const { controllerManagerCommand } = await import('../../../src/cli/controller-manager-command.ts');
  const { schedulerCommand } = await import('../../../src/cli/scheduler-command.ts');
  const { agentCommand } = await import('../../../src/cli/agent-command.ts');
  const { runtimeSimCommand } = await import('../../../src/cli/runtime-sim-command.ts');
  for (const c of [serverCommand, controllerManagerCommand, schedulerCommand, agentCommand, runtimeSimCommand]) assert.ok('feature-gates' in c.flags, c.name);
});
