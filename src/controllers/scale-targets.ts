// Where an object reference (an autoscaler's scaleTargetRef, a pod's controller) has its scale
// subresource: the resource of that kind in the reference's group version, found in the discovery
// document as Kubernetes' REST mapper finds it, remembered once found. A kind without one fails in
// the mapper's words.

import { ApiError } from '../client/api-error.ts';
import type { Client } from '../client/rest.ts';

export interface ScaleRef { apiVersion?: string; kind: string; name: string }
export interface Scale { apiVersion?: string; kind?: string; metadata: Record<string, any>; spec?: { replicas?: number }; status?: { replicas?: number; selector?: string } }

interface APIResource { name: string; kind?: string; namespaced?: boolean }

export class ScaleTargets {
  private known = new Map<string, string>();
  private client: Client;
  constructor(client: Client) { this.client = client; }

  /** the collection path (without namespace part filled) of the kind's resource: `/apis/apps/v1/namespaces/%s/deployments` */
  async collection(ref: ScaleRef): Promise<(ns: string) => string> {
    const apiVersion = ref.apiVersion ?? '';
    const key = `${apiVersion}|${ref.kind}`;
    let resource = this.known.get(key);
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') as [string, string] : ['', apiVersion];
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    if (!resource) {
      let list: APIResource[] = [];
      try { list = (await this.client.get<{ resources?: APIResource[] }>(base)).resources ?? []; } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
      const found = list.find(r => r.kind === ref.kind && !r.name.includes('/') && list.some(s => s.name === `${r.name}/scale`));
      if (!found) throw new Error(`no matches for kind ${JSON.stringify(ref.kind)} in group ${JSON.stringify(group)}`);
      resource = found.name;
      this.known.set(key, resource);
    }
    const r = resource;
    return ns => `${base}/namespaces/${encodeURIComponent(ns)}/${r}`;
  }

  async get(ns: string, ref: ScaleRef): Promise<{ scale: Scale; path: string }> {
    const path = `${(await this.collection(ref))(ns)}/${encodeURIComponent(ref.name)}/scale`;
    return { scale: await this.client.get<Scale>(path), path };
  }
}
