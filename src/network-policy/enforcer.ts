// The NetworkPolicy enforcer of one node: a client of the API (pods, namespaces and
// NetworkPolicies through informers) that keeps this node's nft table equal to what the rule
// generator makes of them. Events are gathered for a moment and then turned into one change
// applied in one transaction; the first sync after a start writes the whole table, which also
// reconciles whatever an earlier run left. A clean stop removes the table. With `apply` false
// (the simulated runtime has no packets) the ruleset is still computed, and can be read.

import { createHash } from 'node:crypto';
import type { Logger } from '../api/log.ts';
import { Backoff } from '../api/backoff.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { applyNft, deleteNftTable } from '../netfilter/nft.ts';
import { ensureBridgeNetfilter } from './bridge-netfilter.ts';
import { namespaceInfo, podInfo, policyInfo } from './inputs.ts';
import { changeScript, fullScript, type Table } from './nft-script.ts';
import { generateRuleset, type Ruleset } from './ruleset.ts';

export interface EnforcerOptions {
  client: Client;
  /** the node whose pods are filtered here */
  node: string;
  log: Logger;
  /** program the host's packet filter; false: compute the ruleset only */
  apply: boolean;
  /** the nft table; default orch-netpol-<node> */
  table?: string;
  /** how long events are gathered before a sync; default 20 ms */
  batchMs?: number;
  /** how often the whole table is written again, undoing changes made behind our back; default 15 minutes */
  resyncMs?: number;
}

export interface Enforcer {
  table: Table;
  /** resolves once the first ruleset has been computed (and applied) */
  synced(): Promise<void>;
  /** the ruleset last computed */
  ruleset(): Ruleset | undefined;
  /** the whole nft script of that ruleset */
  script(): string;
  stop(): Promise<void>;
}

/** this node's table name: the node's, hashed when too long for nft */
export function tableName(node: string): string {
  return node.length <= 48 ? `orch-netpol-${node}` : `orch-netpol-${createHash('sha256').update(node).digest('hex').slice(0, 16)}`;
}

/** what a pod informer keeps of a pod: what the generator reads */
function slimPod(pod: any): any {
  const ports = (c: any) => ({ name: c?.name, restartPolicy: c?.restartPolicy, ports: c?.ports });
  return {
    metadata: { name: pod.metadata?.name, namespace: pod.metadata?.namespace, labels: pod.metadata?.labels, resourceVersion: pod.metadata?.resourceVersion },
    spec: { nodeName: pod.spec?.nodeName, hostNetwork: pod.spec?.hostNetwork, containers: (pod.spec?.containers ?? []).map(ports), initContainers: (pod.spec?.initContainers ?? []).map(ports) },
    status: { phase: pod.status?.phase, podIP: pod.status?.podIP, podIPs: pod.status?.podIPs },
  };
}

export async function startEnforcer(o: EnforcerOptions): Promise<Enforcer> {
  const table: Table = { family: 'inet', name: o.table ?? tableName(o.node) };
  const log = o.log.with({ component: 'network-policy', table: table.name });
  const informers: Informer[] = [
    createInformer(o.client, '/api/v1/pods', { log, transform: slimPod }),
    createInformer(o.client, '/api/v1/namespaces', { log, metadataOnly: true }),
    createInformer(o.client, '/apis/networking.k8s.io/v1/networkpolicies', { log }),
  ];
  const [pods, namespaces, policies] = informers as [Informer, Informer, Informer];
  const backoff = new Backoff({ initialMs: 200, maxMs: 30_000 });
  let current: Ruleset | undefined;
  /** what the kernel holds, as far as we know: undefined means a whole script next */
  let applied: Ruleset | undefined;
  let everApplied = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let resolveSynced!: () => void;
  const firstSync = new Promise<void>(r => { resolveSynced = r; });

  async function sync(): Promise<void> {
    const started = performance.now();
    current = generateRuleset({
      node: o.node,
      pods: pods.list().map(podInfo).filter(p => !!p),
      namespaces: namespaces.list().map(namespaceInfo),
      policies: policies.list().map(policyInfo),
    });
    if (!o.apply) { resolveSynced(); return; }
    let script = applied && changeScript(table, applied, current);
    if (script === '') { resolveSynced(); return; }
    if (!everApplied) {
      const changed = await ensureBridgeNetfilter().catch(err => { log.error('bridged pod traffic is not filtered', { err: String(err) }); return []; });
      if (changed.length) log.info('bridged traffic now reaches the packet filter', { changed });
    }
    const whole = script === undefined;
    script ??= fullScript(table, current);
    await applyNft(script);
    applied = current;
    everApplied = true;
    log.debug('rules programmed', { whole, lines: script.split('\n').length - 1, ms: Math.round(performance.now() - started) });
    resolveSynced();
  }

  function run(): void {
    timer = undefined;
    if (stopped) return;
    if (running) { again = true; return; }
    running = sync().then(() => backoff.reset(), err => {
      // the kernel's state is not known now: the next attempt writes the whole table
      applied = undefined;
      log.error('programming the rules failed; retrying', { err: String(err) });
      schedule(backoff.next());
    }).finally(() => {
      running = undefined;
      if (again) { again = false; schedule(); }
    });
  }

  function schedule(ms = o.batchMs ?? 20): void {
    if (stopped || !informers.every(i => i.hasSynced())) return;
    if (timer) return;
    timer = setTimeout(run, ms);
  }

  for (const inf of informers) {
    inf.on('add', () => schedule()).on('update', () => schedule()).on('delete', () => schedule());
    inf.start();
  }
  void Promise.all(informers.map(i => i.synced())).then(() => schedule(0));
  // also what keeps a process of its own alive while the API server is away (informers retry on
  // unreferenced timers), so that its stop still removes the table
  const resync = setInterval(() => { applied = undefined; schedule(); }, o.resyncMs ?? 15 * 60_000);

  return {
    table,
    synced: () => firstSync,
    ruleset: () => current,
    script: () => (current ? fullScript(table, current) : ''),
    async stop() {
      stopped = true;
      clearInterval(resync);
      if (timer) clearTimeout(timer);
      for (const inf of informers) inf.stop();
      await running;
      if (everApplied) await deleteNftTable(table.family, table.name);
    },
  };
}
