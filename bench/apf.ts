// The APF bench (`npm run bench -- --only=apf`, or `node bench/apf.ts [--quick]`): a node
// (system:node:node-1 in system:nodes) renews its Lease every 50 ms while a noisy user (an
// ordinary authenticated user allowed to read ConfigMaps) keeps 200 lists of a
// thousand ConfigMaps in flight. The server classifies both with the FlowSchemas it writes at
// start, as kube-apiserver's (the bench prints the levels they landed in). The node's renewal
// latency (p50/p99) is measured unloaded (the raw baseline, same run) and under the flood, on a
// server with APF and on one with APF off (max-in-flight limits only); the flood's 429s are
// counted. Target (issue 27): under the flood with APF the node's p99 stays within 2× of unloaded.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, percentile, runLoad, type TlsClient } from './support/load.ts';
import { adminTls, userTls } from './support/admin-tls.ts';
import { node24, repoRoot, startChild, type Child } from './support/processes.ts';

const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1';
const lease = () => JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'node-1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: new Date().toISOString().replace('Z', '000Z') } });

/** renews the Lease every 50 ms for `ms` (one at a time, as a node agent does; more often, for a p99 of a few hundred samples); answers the latencies */
async function renewals(session: ReturnType<typeof connect>, ms: number): Promise<{ p50: number; p99: number; n: number; failed: number; level: string }> {
  const lat: number[] = [];
  let failed = 0;
  let level = '';
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const t0 = performance.now();
    const status = await new Promise<number>(res => {
      const s = session.request({ ':method': 'PUT', ':path': leasePath, 'content-type': 'application/json' });
      let code = 0;
      s.on('response', h => { code = Number(h[':status']); level ||= String(h['x-kubernetes-pf-prioritylevel-uid'] ?? ''); });
      s.on('data', () => {});
      s.on('end', () => res(code));
      s.on('error', () => res(0));
      s.end(lease());
    });
    const took = performance.now() - t0;
    if (status === 200) lat.push(took); else failed++;
    await new Promise(r => setTimeout(r, Math.max(0, 50 - took)));
  }
  lat.sort((a, b) => a - b);
  return { p50: percentile(lat, 50), p99: percentile(lat, 99), n: lat.length, failed, level };
}

const noisyUser = 'noisy';
// a role of its own: `view` gets its rules from the aggregation controller, which a bare API server does not run
const readerRole = JSON.stringify({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'bench-configmap-reader' },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
});
const readerBinding = JSON.stringify({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'bench-configmap-reader' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'bench-configmap-reader' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: noisyUser }],
});

/** the name of the PriorityLevelConfiguration with this uid (a response's X-Kubernetes-PF-PriorityLevel-UID) */
async function levelName(url: string, tls: TlsClient, uid: string): Promise<string> {
  const session = connect(url, tls);
  try {
    const body = await new Promise<string>((res, rej) => {
      const s = session.request({ ':path': '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations' });
      let text = '';
      s.setEncoding('utf8');
      s.on('data', d => { text += d; });
      s.on('end', () => res(text));
      s.on('error', rej);
    });
    const items = (JSON.parse(body) as { items: Array<{ metadata: { name: string; uid: string } }> }).items;
    return items.find(i => i.metadata.uid === uid)?.metadata.name ?? `(none: uid ${JSON.stringify(uid)})`;
  } finally {
    session.close();
  }
}

/** the flood, from its own process so that its client work does not slow the node's client */
function flood(url: string, dataDir: string, path: string, ms: number): Promise<{ perSecond: number; ok: number; tooMany: number; other: number; level: string }> {
  const child = spawn(node24, [join(repoRoot, 'bench/support/apf-flood.ts'), url, dataDir, noisyUser, path, String(ms)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', d => { out += d; });
  return new Promise((res, rej) => child.once('exit', code => (code === 0 ? res(JSON.parse(out)) : rej(new Error(`flood exited ${code}`)))));
}

export async function runApfBench(opts: { quick?: boolean; say?: (line: string) => void } = {}): Promise<void> {
  const say = opts.say ?? ((l: string) => console.log(l));
  const floodMs = opts.quick ? 4000 : 15_000;
  const objects = opts.quick ? 500 : 1000;
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-apf-'));
  const servers: Child[] = [];
  try {
    // the server's seats: Kubernetes' defaults (400 + 200, sized for Go on many cores), and 8 + 4,
    // nearer to what one Node thread runs at once without every request waiting on the others
    const runs = [['apf', '400', '200'], ['apf', '8', '4'], ['off', '400', '200']] as const;
    for (const [mode, readOnly, mutating] of runs) {
      const dataDir = join(dir, `${mode}-${readOnly}`);
      const s = await startChild(node24, [join(repoRoot, 'bench/support/apf-server.ts'), dataDir, mode, readOnly, mutating]);
      servers.push(s);
      const tls = await adminTls(dataDir);
      const cm = '/api/v1/namespaces/default/configmaps';
      await runLoad(s.url, tls, { total: objects, concurrency: 16, expect: 201, request: i => ({ method: 'POST', path: cm, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { v: 'x'.repeat(200) } }) }) });
      // the node's Lease, and the noisy user's right to list
      const setup = [
        { method: 'POST', path: leasePath.replace(/\/node-1$/, ''), body: lease() },
        { method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', body: readerRole },
        { method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', body: readerBinding },
      ];
      await runLoad(s.url, tls, { total: setup.length, concurrency: 1, expect: 201, request: i => setup[i]! });
      // the node's connection is open before the flood, as a node agent's is
      const nodeSession = connect(s.url, await userTls(dataDir, 'system:node:node-1', ['system:nodes']));
      const unloaded = await renewals(nodeSession, opts.quick ? 2000 : 8000);
      const label = `${mode === 'apf' ? 'APF on' : 'APF off'}, ${readOnly}+${mutating}`;
      say(`${`lease renewal, unloaded, ${label}`.padEnd(52)} p50 ${unloaded.p50.toFixed(2).padStart(7)} ms  p99 ${unloaded.p99.toFixed(2).padStart(7)} ms  (${unloaded.n})`);
      const [flooded, node] = await Promise.all([
        flood(s.url, dataDir, cm, floodMs),
        new Promise(r => setTimeout(r, 1000)).then(() => renewals(nodeSession, floodMs - 1500)),
      ]);
      nodeSession.close();
      if (mode === 'apf') say(`classified by the bootstrap FlowSchemas: renewals at priority level ${await levelName(s.url, tls, node.level)}, lists at ${await levelName(s.url, tls, flooded.level)}`);
      say(`${`lease renewal, 200 concurrent lists, ${label}`.padEnd(52)} p50 ${node.p50.toFixed(2).padStart(7)} ms  p99 ${node.p99.toFixed(2).padStart(7)} ms  (${node.n}${node.failed ? `, ${node.failed} failed` : ''})  p99 ${(node.p99 / unloaded.p99).toFixed(1)}× unloaded${mode === 'apf' ? `  (target ≤ 2×: ${node.p99 <= 2 * unloaded.p99 ? 'met' : 'NOT met'})` : ''}`);
      say(`${`noisy lists, ${label}`.padEnd(52)} ${flooded.perSecond.toFixed(0).padStart(6)} answers/s: ${flooded.ok} lists, ${flooded.tooMany} 429s${flooded.other ? `, ${flooded.other} other failures` : ''}`);
      await s.stop();
      servers.pop();
    }
  } finally {
    for (const s of servers) await s.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runApfBench({ quick: process.argv.includes('--quick') });
}
