// One metadata-only informer per resource the collector watches, kept in step with discovery:
// resources that appear later (a new CustomResourceDefinition) get one at the next look,
// resources that go lose theirs. Every event becomes a change to the dependency graph.

import type { Logger } from '../../api/log.ts';
import { discoverAllResources, type ServedResource } from '../../client/discovery.ts';
import { createInformer, type Informer } from '../../client/informer.ts';
import { resourcePath } from '../../client/paths.ts';
import type { Client } from '../../client/rest.ts';
import type { ChangeType } from './graph.ts';
import type { Identity, ObjectMeta } from './identity.ts';
import { apiVersionOf, deletableResources, resourceKey, RestMapper } from './resources.ts';

export type GraphChange = (type: ChangeType, identity: Identity, meta: ObjectMeta, oldMeta?: ObjectMeta) => void;

interface Monitor { resource: ServedResource; informer: Informer<{ metadata: ObjectMeta }> }

/** only what the collector reads is kept of each object */
function slim(obj: { metadata?: ObjectMeta }): { metadata: ObjectMeta } {
  const m = obj.metadata ?? {};
  return { metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, deletionTimestamp: m.deletionTimestamp, finalizers: m.finalizers, ownerReferences: m.ownerReferences } };
}

export class Monitors {
  readonly mapper = new RestMapper();
  private readonly monitors = new Map<string, Monitor>();
  private readonly client: Client;
  private readonly log: Logger;
  private readonly onChange: GraphChange;
  private stopped = false;

  constructor(client: Client, log: Logger, onChange: GraphChange) {
    this.client = client;
    this.log = log;
    this.onChange = onChange;
  }

  /** reads discovery and starts or stops informers to match; a failed group version keeps what it had */
  async sync(): Promise<void> {
    const failed: string[] = [];
    const all = await discoverAllResources(this.client, { onError: gv => failed.push(gv) });
    if (this.stopped) return;
    const failedGroups = new Set(failed.map(gv => (gv.includes('/') ? gv.split('/')[0]! : '')));
    this.mapper.reset(all, failedGroups);
    const wanted = new Map(deletableResources(all).map(r => [resourceKey(r), r]));
    // discovery answered nothing useful: keep the monitors there are
    if (wanted.size === 0) return;
    for (const [key, m] of this.monitors) {
      const w = wanted.get(key);
      if ((!w && !failedGroups.has(m.resource.group)) || (w && w.version !== m.resource.version)) {
        m.informer.stop();
        this.monitors.delete(key);
        this.log.info('stopped watching resource', { resource: key });
      }
    }
    for (const [key, r] of wanted) {
      if (this.monitors.has(key)) continue;
      this.monitors.set(key, { resource: r, informer: this.start(r) });
      this.log.debug('watching resource', { resource: key, version: r.version });
    }
  }

  private start(r: ServedResource): Informer<{ metadata: ObjectMeta }> {
    const apiVersion = apiVersionOf(r);
    const identity = (m: ObjectMeta): Identity => ({ apiVersion, kind: r.kind, name: m.name ?? '', namespace: m.namespace ?? '', uid: m.uid ?? '' });
    const informer = createInformer<{ metadata: ObjectMeta }>(this.client, resourcePath(r), { log: this.log, metadataOnly: true, transform: slim })
      .on('add', o => this.onChange('add', identity(o.metadata), o.metadata))
      .on('update', (a, b) => this.onChange('update', identity(b.metadata), b.metadata, a.metadata))
      .on('delete', o => this.onChange('delete', identity(o.metadata), o.metadata));
    informer.start();
    return informer;
  }

  /** resolves when every informer started so far has listed once */
  async synced(): Promise<void> {
    await Promise.all([...this.monitors.values()].map(m => m.informer.synced()));
  }

  resources(): string[] { return [...this.monitors.keys()]; }

  stop(): void {
    this.stopped = true;
    for (const m of this.monitors.values()) m.informer.stop();
    this.monitors.clear();
  }
}
