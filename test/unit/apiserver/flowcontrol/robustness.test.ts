// Objects that pass the decode checks (right types, any field missing, empty or odd values) never
// make validation, defaulting, the classifier's digest or the printers throw: each is an answer
// or a field error, never a 500.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateFlowSchema, validatePriorityLevel } from '../../../../src/registry/flowcontrol/validation.ts';
import { defaultFlowSchema, defaultPriorityLevel } from '../../../../src/registry/flowcontrol/defaults.ts';
import { digest } from '../../../../src/apiserver/flowcontrol/digest.ts';
import { classifyWith } from '../../../../src/apiserver/flowcontrol/classifier.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';
import { flowSchemaPrinter, priorityLevelPrinter } from '../../../../src/schema/printers/flowcontrol.ts';

const flowSchema = {
  metadata: { name: 'x' },
  spec: {
    priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 5, distinguisherMethod: { type: 'ByUser' },
    rules: [{
      subjects: [{ kind: 'User', user: { name: 'a' } }, { kind: 'ServiceAccount', serviceAccount: { name: 'a', namespace: 'b' } }, { kind: 'Group', group: { name: 'g' } }],
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['a'], clusterScope: true }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/a'] }],
    }],
  },
  status: { conditions: [{ type: 'Dangling', status: 'True' }] },
};
const level = {
  metadata: { name: 'p' },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 3, lendablePercent: 3, borrowingLimitPercent: 3, limitResponse: { type: 'Queue', queuing: { queues: 3, handSize: 2, queueLengthLimit: 3 } } }, exempt: { nominalConcurrencyShares: 1 } },
  status: { conditions: [{ type: 'X' }] },
};

test('mutated objects of the right types are judged without an exception', () => {
  let seed = 12345;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  const mutate = (v: unknown): unknown => {
    if (rnd() < 0.15) {
      if (Array.isArray(v)) return [];
      if (v && typeof v === 'object') return {};
      if (typeof v === 'string') return pick(['', '*', 'Exempt', 'exempt', 'Reject', 'x y']);
      if (typeof v === 'number') return pick([0, -1, 99_999_999]);
      if (typeof v === 'boolean') return !v;
    }
    if (Array.isArray(v)) return v.map(mutate);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(() => rnd() > 0.1).map(([k, x]) => [k, mutate(x)]));
    return v;
  };
  const user = { name: 'a', groups: ['g'] };
  const requests = ['/api/v1/pods', '/a', '/apis/x/v1/namespaces/a/y/z/w'].map(p => parseRequestInfo('GET', p, new URLSearchParams()));
  for (let i = 0; i < 2000; i++) {
    const fs = mutate(flowSchema) as never;
    const pl = mutate(level) as never;
    assert.doesNotThrow(() => {
      defaultFlowSchema(fs);
      defaultPriorityLevel(pl);
      validateFlowSchema(fs);
      validatePriorityLevel(pl);
      const config = digest([pl], [fs]);
      for (const r of requests) classifyWith(config, user, r);
      flowSchemaPrinter.cells(fs, new Date());
      priorityLevelPrinter.cells(pl, new Date());
    }, `flow schema ${JSON.stringify(fs)}, level ${JSON.stringify(pl)}`);
  }
});
