// The objects a resourcequota controller counts, one informer per collection, started the first
// time a quota names something of that collection. The collections with dedicated evaluators
// come from the process's shared informers (the pod informer is the one other controllers hold);
// any other `count/<resource>.<group>` is watched as metadata only, its path found by discovery.

import type { Logger } from '../../api/log.ts';
import type { GroupResource } from '../../api/quota/usage.ts';
import { discoverNamespacedResources, type DiscoveredResource } from '../../client/discovery.ts';
import { createInformer, type Informer } from '../../client/informer.ts';
import { byNamespace } from '../../client/namespace-index.ts';
import type { Client } from '../../client/rest.ts';
import type { InformerFactory } from '../informer-factory.ts';

interface Meta { metadata: { name: string; namespace: string } }

const shared: Record<string, string> = {
  'pods.': '/api/v1/pods',
  'services.': '/api/v1/services',
  'persistentvolumeclaims.': '/api/v1/persistentvolumeclaims',
  'configmaps.': '/api/v1/configmaps',
  'secrets.': '/api/v1/secrets',
  'resourcequotas.': '/api/v1/resourcequotas',
  'replicationcontrollers.': '/api/v1/replicationcontrollers',
};

export interface Collection {
  informer: Informer<Meta>;
  /** the collection's objects in one namespace */
  objectsIn(ns: string): Meta[];
}

export interface CountedObjects {
  /** the collection, its informer made and started on first use; undefined when the server does not serve it */
  collection(gr: GroupResource): Promise<Collection | undefined>;
  stop(): void;
}

/** `onChange(gr, old, new)` hears of every change of a collection once its informer exists */
export function countedObjects(client: Client, log: Logger, informers: InformerFactory, onChange: (gr: GroupResource, oldObj: Meta | undefined, obj: Meta) => void): CountedObjects {
  const made = new Map<string, Collection>();
  const own: Informer[] = [];
  let served: DiscoveredResource[] | undefined;

  async function pathOf(gr: GroupResource): Promise<string | undefined> {
    const key = `${gr.resource}.${gr.group}`;
    if (shared[key]) return shared[key];
    const find = () => served?.find(r => r.group === gr.group && r.resource === gr.resource && r.verbs.includes('list') && r.verbs.includes('watch'));
    // a resource not seen yet may have been added since (a new CRD): discovery is read again
    if (!find()) served = await discoverNamespacedResources(client, { onError: () => {} });
    const r = find();
    return r && `${r.group ? `/apis/${r.group}` : '/api'}/${r.version}/${r.resource}`;
  }

  return {
    async collection(gr) {
      const key = `${gr.resource}.${gr.group}`;
      if (made.get(key)) return made.get(key);
      const path = await pathOf(gr);
      if (made.get(key)) return made.get(key);
      let inf: Informer<Meta> | undefined;
      if (path && shared[key]) inf = informers.informer<Meta>(path);
      else if (path) {
        inf = createInformer<Meta>(client, path, { log, metadataOnly: true });
        own.push(inf);
        inf.start();
      }
      if (!inf) return undefined;
      const c = { informer: inf, objectsIn: byNamespace(inf) };
      made.set(key, c);
      inf.on('add', o => onChange(gr, undefined, o)).on('update', (o, n) => onChange(gr, o, n)).on('delete', o => onChange(gr, undefined, o));
      return c;
    },
    stop() { for (const inf of own) inf.stop(); },
  };
}
