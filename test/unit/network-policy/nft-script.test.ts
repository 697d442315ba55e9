import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceInfo, podInfo, policyInfo } from '../../../src/network-policy/inputs.ts';
import { changeScript, fullScript } from '../../../src/network-policy/nft-script.ts';
import { generateRuleset, policyId } from '../../../src/network-policy/ruleset.ts';

const t = { family: 'inet' as const, name: 'orch-netpol-n1' };
const pod = (name: string, ip: string, app: string) => ({ metadata: { name, namespace: 'default', labels: { app } }, spec: { nodeName: 'n1', containers: [{ name: 'c' }] }, status: { phase: 'Running', podIP: ip } });
const allow = { metadata: { name: 'allow', namespace: 'default' }, spec: { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }] }] } };
const ruleset = (pods: object[], policies: object[]) => generateRuleset({ node: 'n1', pods: pods.map(podInfo).filter(p => !!p), namespaces: [namespaceInfo({ metadata: { name: 'default' } })], policies: policies.map(policyInfo) });
const id = policyId('default', 'allow');

test('the whole script remakes the table: sets and chains declared before any rule refers to them', () => {
  const script = fullScript(t, ruleset([pod('web', '10.42.0.10', 'web'), pod('client', '10.42.0.11', 'client')], [allow]));
  const lines = script.trim().split('\n');
  assert.deepEqual(lines.slice(0, 3), ['add table inet orch-netpol-n1', 'delete table inet orch-netpol-n1', 'add table inet orch-netpol-n1']);
  assert.ok(lines.includes(`add element inet orch-netpol-n1 ${id}-ingress-0-peer-pods-v4 { 10.42.0.11 }`));
  assert.ok(lines.includes('add chain inet orch-netpol-n1 forward { type filter hook forward priority filter; policy accept; }'));
  const firstRule = lines.findIndex(l => l.startsWith('add rule'));
  assert.ok(lines.slice(firstRule).every(l => l.startsWith('add rule')), 'every declaration comes first');
  assert.ok(lines.includes(`add rule inet orch-netpol-n1 ingress ip daddr @${id}-pods-v4 jump ${id}-ingress`));
});

test('a change touches only what changed: a new peer pod is one element added', () => {
  const before = ruleset([pod('web', '10.42.0.10', 'web'), pod('client', '10.42.0.11', 'client')], [allow]);
  const after = ruleset([pod('web', '10.42.0.10', 'web'), pod('client', '10.42.0.11', 'client'), pod('client2', '10.42.0.13', 'client')], [allow]);
  assert.equal(changeScript(t, before, after), `add element inet orch-netpol-n1 ${id}-ingress-0-peer-pods-v4 { 10.42.0.13 }\n`);
  assert.equal(changeScript(t, after, after), '', 'nothing to do');
  // a new selected pod: plain sets change element by element
  const web2 = ruleset([pod('web', '10.42.0.10', 'web'), pod('web2', '10.42.0.12', 'web'), pod('client', '10.42.0.11', 'client')], [allow]);
  assert.equal(changeScript(t, before, web2), [`add element inet orch-netpol-n1 ${id}-pods-v4 { 10.42.0.12 }`, 'add element inet orch-netpol-n1 ingress-isolated-v4 { 10.42.0.12 }', ''].join('\n'));
  assert.equal(changeScript(t, web2, before), [`delete element inet orch-netpol-n1 ${id}-pods-v4 { 10.42.0.12 }`, 'delete element inet orch-netpol-n1 ingress-isolated-v4 { 10.42.0.12 }', ''].join('\n'));
});

test('an ipBlock edited: its interval set is written again whole, ranges merging or splitting', () => {
  const pods = [pod('web', '10.42.0.10', 'web')];
  const block = (cidr: string) => ({ ...allow, spec: { ...allow.spec, ingress: [{ from: [{ ipBlock: { cidr, except: ['10.1.0.0/16'] } }] }] } });
  assert.equal(changeScript(t, ruleset(pods, [block('10.0.0.0/8')]), ruleset(pods, [block('10.0.0.0/12')])),
    `flush set inet orch-netpol-n1 ${id}-ingress-0-peer-blocks-v4\nadd element inet orch-netpol-n1 ${id}-ingress-0-peer-blocks-v4 { 10.0.0.0/16, 10.2.0.0-10.15.255.255 }\n`);
});

test('a policy removed: chains flushed before they are deleted, sets deleted once nothing refers to them', () => {
  const pods = [pod('web', '10.42.0.10', 'web'), pod('client', '10.42.0.11', 'client')];
  const lines = changeScript(t, ruleset(pods, [allow]), ruleset(pods, []))!.trim().split('\n');
  const at = (l: string) => { const i = lines.indexOf(l); assert.ok(i >= 0, `${l} in\n${lines.join('\n')}`); return i; };
  const dispatch = at('flush chain inet orch-netpol-n1 ingress');
  const flush = at(`flush chain inet orch-netpol-n1 ${id}-ingress`);
  const del = at(`delete chain inet orch-netpol-n1 ${id}-ingress`);
  const set = at(`delete set inet orch-netpol-n1 ${id}-ingress-0-peer-pods-v4`);
  assert.ok(dispatch < flush && flush < del && del < set);
  // and back: declarations first, then elements, then rules
  const back = changeScript(t, ruleset(pods, []), ruleset(pods, [allow]))!.trim().split('\n');
  assert.ok(back.findIndex(l => l.startsWith('add rule')) > back.findIndex(l => l.startsWith(`add chain inet orch-netpol-n1 ${id}-ingress`)));
});

test('a change only a whole script can make is refused', () => {
  const r = ruleset([pod('web', '10.42.0.10', 'web')], [allow]);
  const changed = { sets: new Map([...r.sets].map(([k, s]) => [k, k === 'ingress-isolated-v4' ? { ...s, interval: true } : s])), chains: r.chains };
  assert.equal(changeScript(t, r, changed), undefined);
});
