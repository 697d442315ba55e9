// The service proxy's loop: Services, EndpointSlices and this node through informers; after a
// change (at most once per minimum interval, as kube-proxy bounds its syncs), the table of each
// address family is generated again and the difference from what was last written goes to the
// kernel as one `nft -f` transaction (a partial sync). The first sync, a sync after a failure and
// one every full-sync period rewrite the whole table and remove what they do not know, so a
// restart reconciles whatever a previous run left. A clean stop deletes the tables.

import type { Logger } from '../api/log.ts';
import { Backoff } from '../api/backoff.ts';
import { createInformer, type Informer } from '../client/informer.ts';
import type { Client } from '../client/rest.ts';
import { assembleRuleset, defaultTable, serviceFragment, type Fragment, type NodeFacts } from './rules.ts';
import type { IptablesWriter } from './iptables-writer.ts';
import { loadBalancerStatusWriter } from './load-balancer-status.ts';
import { fullSyncScript, partialSyncScript, type ExistingTable, type Ruleset } from './ruleset.ts';
import { ofFamily, serviceKeyOfSlice, servicePorts, type Family } from './service-ports.ts';

/** how the proxy reaches the packet filter; none given: rules are computed and kept, not applied */
export interface PacketFilter {
  apply(script: string): Promise<void>;
  /** the table as it is now, or undefined when there is none */
  existing(family: Family, table: string): Promise<ExistingTable | undefined>;
  deleteTable(family: Family, table: string): Promise<void>;
}

export interface ProxierOptions {
  client: Client;
  nodeName: string;
  /** the pod network(s) */
  clusterCIDRs: string[];
  /** node port addresses; default: the Node's InternalIP and ExternalIP addresses */
  nodeIPs?: string[];
  /** node ports on 127.0.0.1 too (default true, as kube-proxy's iptables mode) */
  localhostNodePorts?: boolean;
  table?: string;
  filter?: PacketFilter;
  /** the fallback where nft is missing: iptables-restore instead of `filter` */
  iptables?: IptablesWriter;
  /** kube-proxy's --min-sync-period (default 1 s) */
  minSyncIntervalMs?: number;
  /** how often the whole table is rewritten even without failures (default 1 h) */
  fullSyncPeriodMs?: number;
  log: Logger;
  /** an address of this host to give LoadBalancer Services as their ingress (none: status left empty) */
  loadBalancerIP?: string;
  /** told after every sync (tests, the bench, --dry-run) */
  onSync?: (s: SyncReport) => void;
}

export interface SyncReport {
  full: boolean;
  /** the scripts written, per family ('' where nothing changed) */
  scripts: Partial<Record<Family, string>>;
  rulesets: Partial<Record<Family, Ruleset>>;
  ms: number;
}

export interface Proxier {
  /** resolves after the first sync */
  ready(): Promise<void>;
  /** the tables as last generated (applied, unless there is no packet filter) */
  current(): Partial<Record<Family, Ruleset>>;
  /** stops watching; `cleanup` also deletes the tables (a clean stop) */
  stop(cleanup?: boolean): Promise<void>;
}

/** what identifies an object's state: its resourceVersion (or, without one, its content) */
const version = (o: any): string => o?.metadata?.resourceVersion ?? JSON.stringify(o);

export function startProxier(o: ProxierOptions): Proxier {
  const table = o.table ?? defaultTable;
  const minInterval = o.minSyncIntervalMs ?? 1000;
  const fullPeriod = o.fullSyncPeriodMs ?? 3_600_000;
  const log = o.log;
  const services: Informer = createInformer(o.client, '/api/v1/services', { log });
  const slices: Informer = createInformer(o.client, '/apis/discovery.k8s.io/v1/endpointslices', { log });
  const nodes: Informer | undefined = o.nodeIPs ? undefined : createInformer(o.client, '/api/v1/nodes', { log, fieldSelector: `metadata.name=${o.nodeName}` });
  const written: Partial<Record<Family, Ruleset>> = {};
  let fragments = new Map<string, { sig: string; frag: Fragment }>();
  const generated: Partial<Record<Family, Ruleset>> = {};
  const backoff = new Backoff({ initialMs: 1000, maxMs: 30_000, jitter: 0.2 });
  let needFull = true;
  let lastFull = 0;
  let lastSync = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let dirty = false;
  let stopped = false;
  let resolveReady!: () => void;
  const readyPromise = new Promise<void>(r => { resolveReady = r; });

  function nodeIPs(): string[] {
    if (o.nodeIPs) return o.nodeIPs;
    const node = nodes?.list()[0];
    return ((node?.status?.addresses ?? []) as Array<{ type: string; address: string }>)
      .filter(a => a.type === 'InternalIP' || a.type === 'ExternalIP').map(a => a.address);
  }

  function families(): Family[] {
    const v6 = [...o.clusterCIDRs, ...nodeIPs()].some(ofFamily('ip6'));
    return v6 ? ['ip', 'ip6'] : ['ip'];
  }

  function slicesByService(): Map<string, any[]> {
    const byService = new Map<string, any[]>();
    for (const s of slices.list()) {
      const key = serviceKeyOfSlice(s);
      if (key) byService.set(key, [...(byService.get(key) ?? []), s]);
    }
    return byService;
  }

  function factsOf(family: Family): NodeFacts {
    return {
      nodeName: o.nodeName,
      nodeIPs: nodeIPs().filter(ofFamily(family)),
      clusterCIDRs: o.clusterCIDRs.filter(ofFamily(family)),
      localhostNodePorts: family === 'ip' && (o.localhostNodePorts ?? true),
      table,
    };
  }

  function generate(byService: Map<string, any[]>): Partial<Record<Family, Ruleset>> {
    const out: Partial<Record<Family, Ruleset>> = {};
    const fresh = new Map<string, { sig: string; frag: Fragment }>();
    for (const family of families()) {
      const facts = factsOf(family);
      const factsSig = JSON.stringify(facts);
      const frags: Fragment[] = [];
      for (const svc of services.list()) {
        const key = `${family} ${svc.metadata.namespace}/${svc.metadata.name}`;
        const own = byService.get(`${svc.metadata.namespace}/${svc.metadata.name}`) ?? [];
        // a Service whose object, slices and node facts are as last time keeps its fragment
        const sig = `${factsSig} ${version(svc)} ${own.map(version).sort().join(',')}`;
        const hit = fragments.get(key);
        const frag = hit?.sig === sig ? hit.frag : serviceFragment(family, servicePorts([svc], byService, family), facts);
        fresh.set(key, { sig, frag });
        frags.push(frag);
      }
      out[family] = assembleRuleset(family, facts, frags);
    }
    fragments = fresh;
    return out;
  }

  async function sync(): Promise<void> {
    const began = performance.now();
    const full = needFull || Date.now() - lastFull >= fullPeriod;
    const byService = slicesByService();
    const next = generate(byService);
    const scripts: SyncReport['scripts'] = {};
    // the iptables fallback (IPv4) writes all of its chains each time; the nft tables are still
    // computed, for current()
    if (o.iptables) scripts.ip = await o.iptables.sync(servicePorts(services.list(), byService, 'ip'), factsOf('ip'));
    for (const family of Object.keys(next) as Family[]) {
      if (o.iptables) break;
      const r = next[family]!;
      const prev = written[family];
      let script: string;
      if (full || !prev) {
        const existing = o.filter ? await o.filter.existing(family, table) : undefined;
        script = fullSyncScript(r, existing);
      } else {
        script = partialSyncScript(prev, r);
      }
      if (script && o.filter) await o.filter.apply(script);
      written[family] = r;
      scripts[family] = script;
    }
    Object.assign(generated, next);
    if (full) { needFull = false; lastFull = Date.now(); }
    const ms = performance.now() - began;
    log.debug('proxy rules synced', { full, ms: Math.round(ms) });
    o.onSync?.({ full, scripts, rulesets: next, ms });
  }

  function run(): void {
    timer = undefined;
    if (stopped || !services.hasSynced() || !slices.hasSynced() || (nodes && !nodes.hasSynced())) return;
    if (running) { dirty = true; return; }
    dirty = false;
    lastSync = Date.now();
    running = sync().then(() => {
      backoff.reset();
      resolveReady();
    }, err => {
      // what the kernel holds is unknown now: the next sync rewrites the whole table
      needFull = true;
      for (const f of Object.keys(written) as Family[]) delete written[f];
      log.error('syncing proxy rules failed; retrying', { err: String(err) });
      if (!stopped) { timer = setTimeout(run, backoff.next()); timer.unref(); }
    }).finally(() => {
      running = undefined;
      if (dirty && !stopped) schedule();
    });
  }

  /** a sync soon: at once when the last one was long enough ago, else when the interval is up */
  function schedule(): void {
    if (stopped) return;
    if (running) { dirty = true; return; }
    if (timer) return;
    timer = setTimeout(run, Math.max(0, lastSync + minInterval - Date.now()));
    timer.unref();
  }

  if (o.loadBalancerIP) {
    const write = loadBalancerStatusWriter(o.client, o.loadBalancerIP, log);
    services.on('add', write).on('update', (_old, svc) => write(svc));
  }
  const informers = [services, slices, ...(nodes ? [nodes] : [])];
  for (const inf of informers) {
    inf.on('add', schedule).on('update', schedule).on('delete', schedule);
    inf.start();
  }
  // the first sync even with nothing to hear of, then the periodic full one
  Promise.all(informers.map(i => i.synced())).then(schedule, () => undefined);
  const periodic = setInterval(() => { needFull = true; schedule(); }, fullPeriod);
  periodic.unref();

  return {
    ready: () => readyPromise,
    current: () => ({ ...generated }),
    async stop(cleanup = false) {
      stopped = true;
      clearInterval(periodic);
      if (timer) clearTimeout(timer);
      for (const inf of informers) inf.stop();
      await running?.catch(() => undefined);
      if (cleanup && o.iptables) await o.iptables.cleanup();
      if (cleanup && o.filter) for (const family of new Set([...families(), ...Object.keys(written) as Family[]])) await o.filter.deleteTable(family, table);
    },
  };
}
