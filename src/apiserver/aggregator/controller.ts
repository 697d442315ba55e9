// The availability controller with the discovery it learns on the way: every tick it reads the
// APIServices; each remote one is checked (Service, port, endpoints, then a GET of its
// /apis/<group>/<version> as system:kube-aggregator in system:masters) when anything it depends
// on changed, when its last check is older than the check interval, or every tick while it
// fails. Its Available condition is written only when it changes; the discovery document of a
// passing check is kept for the merged discovery and routing.

import type { KubeObject } from '../../api/object.ts';
import type { Logger } from '../../api/log.ts';
import { rfc3339 } from '../../api/time.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import { goTlsError } from '../node-tls.ts';
import { goDialError } from '../proxy/target.ts';
import { clusterCondition, discoveryFailure, isAvailable, passedCondition, serviceRef, withCondition, type APIServiceSpec, type AvailableCondition, type ServiceRef } from './availability.ts';
import { endpointUrl, pickEndpoint, readyEndpoints } from './endpoint-pick.ts';
import { readServiceState, fingerprint } from './service-state.ts';
import { backendGet } from './backend-request.ts';
import type { FrontProxyPki } from './front-proxy.ts';
import { groupHeader, userHeader } from './identity.ts';

export interface RemoteAPIService {
  name: string;
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
  ref: ServiceRef;
  spec: APIServiceSpec;
  available: boolean;
  /** the APIResourceList the last passing check read */
  discovery?: { resources?: Array<Record<string, unknown>> };
}

interface Checked { key: string; at: number; ok: boolean }

export interface ControllerOptions {
  store: Registry;
  catalog: Catalog;
  frontProxy: FrontProxyPki;
  log: Logger;
  /** how often APIServices are read (default 1 s) */
  tickMs?: number;
  /** how often a passing APIService is checked again (default 30 s, kube-aggregator's resync) */
  recheckMs?: number;
  now?: () => number;
}

export class AvailabilityController {
  /** remote APIServices by "<group>/<version>" */
  readonly remote = new Map<string, RemoteAPIService>();
  private readonly checked = new Map<string, Checked>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly o: ControllerOptions;
  constructor(o: ControllerOptions) { this.o = o; }

  start(): void {
    const loop = () => {
      this.running = this.tick().catch(err => this.o.log.warn('apiservice availability check failed', { err: String(err) }))
        .finally(() => { if (this.timer !== undefined) this.timer = setTimeout(loop, this.o.tickMs ?? 1000); });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async tick(): Promise<void> {
    const info = this.o.catalog.lookup('apiregistration.k8s.io', 'v1', 'apiservices');
    if (!info) return;
    const now = (this.o.now ?? Date.now)();
    const items = (await this.o.store.list(info, undefined)).items as Array<KubeObject & { spec?: APIServiceSpec & { groupPriorityMinimum?: number; versionPriority?: number }; status?: { conditions?: AvailableCondition[] } }>;
    const seen = new Set<string>();
    await Promise.all(items.map(async obj => {
      const ref = serviceRef(obj.spec);
      if (!ref) return;
      const gv = `${obj.spec?.group ?? ''}/${obj.spec?.version ?? ''}`;
      seen.add(gv);
      const state = await readServiceState(this.o.store, this.o.catalog, ref);
      // the spec, not the resourceVersion: the status this controller writes must not count as a change
      const key = `${JSON.stringify(obj.spec)}|${fingerprint(state)}`;
      const last = this.checked.get(obj.metadata.name!);
      const prev = this.remote.get(gv);
      const entry: RemoteAPIService = {
        name: obj.metadata.name!, group: obj.spec?.group ?? '', version: obj.spec?.version ?? '',
        groupPriorityMinimum: obj.spec?.groupPriorityMinimum ?? 0, versionPriority: obj.spec?.versionPriority ?? 0,
        ref, spec: obj.spec!, available: isAvailable(obj), discovery: prev?.name === obj.metadata.name ? prev?.discovery : undefined,
      };
      this.remote.set(gv, entry);
      if (last && last.key === key && last.ok && now - last.at < (this.o.recheckMs ?? 30_000)) return;
      const { condition, discovery } = await this.check(ref, obj.spec!, state);
      this.checked.set(obj.metadata.name!, { key, at: now, ok: condition.status === 'True' });
      entry.available = condition.status === 'True';
      if (discovery) entry.discovery = discovery;
      const status = withCondition(obj.status, condition, rfc3339(now));
      if (!status) return;
      if (condition.status !== 'True') this.o.log.warn('apiservice unavailable', { name: obj.metadata.name, reason: condition.reason, message: condition.message });
      await this.o.store.modify(info, undefined, obj.metadata.name!, c => ({ ...c, status: { ...(c as { status?: object }).status, ...status } }), { subresource: 'status' })
        .catch(err => this.o.log.warn('apiservice status update failed', { name: obj.metadata.name, err: String(err) }));
    }));
    for (const gv of this.remote.keys()) if (!seen.has(gv)) this.remote.delete(gv);
    for (const name of this.checked.keys()) if (!items.some(o => o.metadata.name === name)) this.checked.delete(name);
  }

  private async check(ref: ServiceRef, spec: APIServiceSpec, state: Awaited<ReturnType<typeof readServiceState>>): Promise<{ condition: AvailableCondition; discovery?: RemoteAPIService['discovery'] }> {
    const failed = clusterCondition(ref, state.service, state.endpoints ?? (state.slices.length ? slicesAsEndpoints(ref, state) : undefined));
    if (failed) return { condition: failed };
    const endpoint = pickEndpoint(readyEndpoints(ref, state.service!, state.endpoints, state.slices));
    const path = spec.group ? `/apis/${spec.group}/${spec.version}` : `/api/${spec.version}`;
    if (!endpoint) return { condition: discoveryFailure(`https://${ref.name}.${ref.namespace}.svc:${ref.port}${path}`, { error: `no endpoints available for service "${ref.name}"` }) };
    const url = endpointUrl(endpoint, path);
    try {
      const res = await backendGet(url, { [userHeader]: 'system:kube-aggregator', [groupHeader]: ['system:masters'], accept: 'application/json' }, { ref, spec, client: this.o.frontProxy.client }, 5000);
      if (res.status < 200 || res.status >= 300) return { condition: discoveryFailure(url, { status: res.status }) };
      let discovery: RemoteAPIService['discovery'];
      try { discovery = JSON.parse(res.body.toString('utf8')); } catch { discovery = undefined; }
      return { condition: passedCondition(), discovery };
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const hostPort = `${endpoint.host}:${endpoint.port}`;
      const words = e.message.startsWith('Get "') ? e.message : `Get "${url}": ${goTlsError(e, endpoint.host) ?? goDialError(e, hostPort)}`;
      return { condition: discoveryFailure(url, { error: words }) };
    }
  }
}

/** a Service without an Endpoints object but with EndpointSlices, seen as the Endpoints they mirror */
function slicesAsEndpoints(ref: ServiceRef, state: Awaited<ReturnType<typeof readServiceState>>): KubeObject {
  const ready = readyEndpoints(ref, state.service!, undefined, state.slices);
  const portName = ((state.service as { spec?: { ports?: Array<{ name?: string; port?: number }> } }).spec?.ports ?? []).find(p => p.port === ref.port)?.name ?? '';
  return { metadata: {}, subsets: ready.length ? [{ addresses: ready.map(e => ({ ip: e.host })), ports: [{ name: portName, port: ready[0]!.port }] }] : [] } as KubeObject;
}
