// The PodSecurity plugin on its own, over an in-memory set of namespaces and pods and a clock
// the test moves: each call returns what the plugin said (warnings, audit annotations) or the
// error it refused with.

import type { KubeObject } from '../../../../../../src/api/object.ts';
import type { StatusError } from '../../../../../../src/api/status.ts';
import { notFound } from '../../../../../../src/api/status.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionOperation } from '../../../../../../src/apiserver/admission/types.ts';
import type { ResourceInfo } from '../../../../../../src/schema/types.ts';
import { podSecurity } from '../../../../../../src/apiserver/admission/plugins/pod-security.ts';

export interface Outcome { warnings: string[]; annotations: Record<string, string>; error?: StatusError }

export interface Harness {
  namespaces: Map<string, KubeObject>;
  pods: KubeObject[];
  /** ms added to the clock each time the plugin reads it */
  tick: number;
  /** the pod list fails */
  listFails: boolean;
  call(a: Partial<Omit<AdmissionAttributes, 'resource'>> & { operation: AdmissionOperation; resource: [group: string, resource: string] }): Promise<Outcome>;
}

export function harness(pluginConfig?: unknown): Harness {
  let clock = 0;
  const h: Harness = { namespaces: new Map(), pods: [], tick: 0, listFails: false, call: undefined! };
  const info = (group: string, resource: string) => ({ group, version: 'v1', resource }) as unknown as ResourceInfo;
  const deps = {
    catalog: { lookup: (g: string, _v: string, r: string) => info(g, r) },
    registry: {
      async get(_i: ResourceInfo, _ns: string | undefined, name: string) {
        const ns = h.namespaces.get(name);
        if (!ns) throw notFound({ group: '', resource: 'namespaces' }, name);
        return ns;
      },
      async list(_i: ResourceInfo, ns: string) {
        if (h.listFails) throw new Error('etcd is down');
        return { items: h.pods.filter(p => p.metadata.namespace === ns) };
      },
    },
    now: () => new Date((clock += h.tick)),
    random: () => 0.5,
    pluginConfig: pluginConfig === undefined ? undefined : { PodSecurity: pluginConfig },
  } as unknown as AdmissionDeps;
  const plugin = podSecurity(deps);
  h.call = async a => {
    const out: Outcome = { warnings: [], annotations: {} };
    const [group, resource] = a.resource;
    const attrs: AdmissionAttributes = {
      subresource: '', namespace: '', name: a.object?.metadata?.name ?? '', user: { name: 'jane', groups: [] }, dryRun: false,
      ...a,
      resource: { ...info(group, resource), namespaced: resource !== 'namespaces' } as unknown as ResourceInfo,
      warn: w => out.warnings.push(w),
      annotate: (k, v) => { out.annotations[k] = v; },
    };
    try { await plugin.validate!(attrs); } catch (err) { out.error = err as StatusError; }
    return out;
  };
  return h;
}

export const ns = (name: string, labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
export const podObject = (name: string, namespace: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, ...meta }, spec }) as KubeObject;
export const psa = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`pod-security.kubernetes.io/${k}`, v]));
