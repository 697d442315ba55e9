// The NetworkPolicy bench (`npm run bench:network-policy`): what one sync of a node's enforcer
// costs in a large cluster — 5,000 pods in 50 namespaces (500 on this node), 500 policies with
// pod, namespace and ipBlock peers and named ports — beside raw baselines measured in the same
// run: reading the pods alone (the floor of any sync), and one `nft -f` transaction doing nothing
// (the floor of any kernel update). Figures: generating the ruleset, the change a new peer pod
// makes, and, where nft is installed (root), applying the whole table and that change.

import { performance } from 'node:perf_hooks';
import { applyNft, deleteNftTable, findNft } from '../src/netfilter/nft.ts';
import { namespaceInfo, podInfo, policyInfo } from '../src/network-policy/inputs.ts';
import { changeScript, fullScript } from '../src/network-policy/nft-script.ts';
import { generateRuleset } from '../src/network-policy/ruleset.ts';

const pods = 5000, policies = 500, namespaces = 50;
const ip = (i: number) => `10.${40 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`;
const podObject = (i: number) => ({
  metadata: { name: `p${i}`, namespace: `ns${i % namespaces}`, labels: { app: `a${i % 100}` } },
  spec: { nodeName: i % 10 === 0 ? 'here' : 'elsewhere', containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8000 + (i % 5) }] }] },
  status: { phase: 'Running', podIP: ip(i) },
});
const rawPods = Array.from({ length: pods }, (_, i) => podObject(i));
const nsInfos = Array.from({ length: namespaces }, (_, i) => namespaceInfo({ metadata: { name: `ns${i}`, labels: { team: `t${i % 5}` } } }));
const policyInfos = Array.from({ length: policies }, (_, i) => policyInfo({
  metadata: { name: `np${i}`, namespace: `ns${i % namespaces}` },
  spec: {
    podSelector: { matchLabels: { app: `a${i % 100}` } },
    ingress: [{ from: [{ podSelector: { matchLabels: { app: `a${(i + 1) % 100}` } } }, { namespaceSelector: { matchLabels: { team: `t${i % 5}` } } }], ports: [{ port: 'http' }, { port: 443 }] }],
    egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.40.0.0/16'] } }] }],
  },
}));

function median(fn: () => void, runs = 15): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) { const t = performance.now(); fn(); times.push(performance.now() - t); }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}
async function medianAsync(fn: () => Promise<void>, runs = 9): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) { const t = performance.now(); await fn(); times.push(performance.now() - t); }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}
const line = (name: string, ms: number, extra = '') => console.log(`${name.padEnd(46)} ${ms.toFixed(1).padStart(8)} ms${extra}`);

const infos = rawPods.map(podInfo).filter(p => !!p);
const input = { node: 'here', pods: infos, namespaces: nsInfos, policies: policyInfos };
const ruleset = generateRuleset(input);
// a peer of policy np10 (which selects this node's a10 pods in ns10): app=a11 in ns10
const newcomer = podInfo({ ...podObject(pods), metadata: { name: 'new', namespace: 'ns10', labels: { app: 'a11' } } })!;
const after = generateRuleset({ ...input, pods: [...infos, newcomer] });
const table = { family: 'inet' as const, name: `orch-netpol-bench-${process.pid}` };
const change = changeScript(table, ruleset, after)!;
const back = changeScript(table, after, ruleset)!;

console.log(`${pods} pods (${infos.filter(p => p.node === 'here').length} here), ${policies} policies, ${namespaces} namespaces: ${ruleset.sets.size} sets, ${ruleset.chains.size} chains, ${fullScript(table, ruleset).length} bytes`);
line('baseline: reading the pods', median(() => { rawPods.map(podInfo); }));
line('generating the ruleset', median(() => { generateRuleset(input); }));
line('a new peer pod: generate + difference', median(() => { changeScript(table, ruleset, generateRuleset({ ...input, pods: [...infos, newcomer] })); }), `  (${change.split('\n').length - 1} lines)`);

if (findNft() && process.getuid?.() === 0) {
  try {
    line('baseline: one nft transaction doing nothing', await medianAsync(() => applyNft(`add table ${table.family} ${table.name}\n`)));
    line('applying the whole table', await medianAsync(() => applyNft(fullScript(table, ruleset))));
    await applyNft(fullScript(table, ruleset));
    let forward = true;
    line('applying the change (there and back in turn)', await medianAsync(async () => { await applyNft(forward ? change : back); forward = !forward; }, 10));
  } finally {
    await deleteNftTable(table.family, table.name);
  }
} else {
  console.log('nft not installed or not root: kernel figures skipped');
}
