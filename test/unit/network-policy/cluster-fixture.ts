// Test support: a small cluster seen from node n1, and its ruleset under given policies, with
// packets judged by the evaluator.

import { namespaceInfo, podInfo, policyInfo } from '../../../src/network-policy/inputs.ts';
import { generateRuleset } from '../../../src/network-policy/ruleset.ts';
import { verdict, type Packet } from './evaluate.ts';

// a node n1 with web (10.42.0.10, named port http=8080), client (10.42.0.11) and db (10.42.0.12)
// in default; tools (10.42.0.20) in team-a (labelled team=a); a remote pod (10.42.1.5) in
// team-a on node n2
export const pod = (name: string, ns: string, ip: string | string[], labels: Record<string, string>, opts: { node?: string; ports?: unknown[]; spec?: object; phase?: string } = {}) => ({
  metadata: { name, namespace: ns, labels },
  spec: { nodeName: opts.node ?? 'n1', containers: [{ name: 'main', ports: opts.ports ?? [] }], ...opts.spec },
  status: { phase: opts.phase ?? 'Running', podIPs: [ip].flat().map(i => ({ ip: i })) },
});
export const basePods = [
  pod('web', 'default', '10.42.0.10', { app: 'web' }, { ports: [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 5353, protocol: 'UDP' }] }),
  pod('client', 'default', '10.42.0.11', { app: 'client' }),
  pod('db', 'default', '10.42.0.12', { app: 'db' }, { ports: [{ name: 'http', containerPort: 9090 }] }),
  pod('tools', 'team-a', '10.42.0.20', { app: 'client' }),
  pod('remote', 'team-a', '10.42.1.5', { app: 'web' }, { node: 'n2', ports: [{ name: 'http', containerPort: 7070 }] }),
];
const baseNamespaces = [{ metadata: { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } } }, { metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a', team: 'a' } } }];
export const policy = (name: string, spec: object, ns = 'default') => ({ metadata: { name, namespace: ns }, spec });

export function cluster(policies: object[], pods: object[] = basePods) {
  const r = generateRuleset({ node: 'n1', pods: pods.map(podInfo).filter(p => !!p), namespaces: baseNamespaces.map(namespaceInfo), policies: policies.map(policyInfo) });
  return {
    r,
    fwd: (p: Packet) => verdict(r, 'forward', { proto: 'tcp', port: 80, ...p }),
    toHost: (p: Packet) => verdict(r, 'input', { proto: 'udp', port: 53, ...p }),
  };
}
export const web = '10.42.0.10', client = '10.42.0.11', db = '10.42.0.12', tools = '10.42.0.20', remote = '10.42.1.5', outside = '192.0.2.7', gateway = '10.42.0.1';
