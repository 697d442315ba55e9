// Priority: a new pod's spec.priority and spec.preemptionPolicy come from its PriorityClass —
// the one it names, else the cluster's globalDefault class (the lowest valued, should a race
// have made two), else priority 0 and PreemptLowerPriority. A value the pod states itself must
// agree. An update keeps what the create set. PriorityClass writes are checked for a second
// globalDefault. Any namespace may use the system classes: 1.36 no longer restricts them to
// kube-system (a ResourceQuota limitedResources configuration is the way to restrict them).

import { StatusError, internalError } from '../../../api/status.ts';
import type { KubeObject } from '../../../api/object.ts';
import type { CoreV1PodSpec, SchedulingV1PriorityClass } from '../../../schema/generated/types.ts';
import { defaultPreemptionPolicy, defaultPriorityWhenNoDefaultClass } from '../../../api/priority-classes.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';

type PriorityClass = SchedulingV1PriorityClass & KubeObject;
interface Resolved { name: string; value: number; preemptionPolicy?: string }

function isPod(a: AdmissionAttributes): boolean {
  return !a.subresource && a.resource.group === '' && a.resource.resource === 'pods';
}

export function priority(deps: AdmissionDeps): AdmissionPlugin {
  const info = deps.catalog.lookup('scheduling.k8s.io', 'v1', 'priorityclasses');

  async function globalDefault(): Promise<PriorityClass | undefined> {
    if (!info) return undefined;
    const all = (await deps.registry.list(info, undefined)).items as PriorityClass[];
    let found: PriorityClass | undefined;
    for (const pc of all) if (pc.globalDefault && (!found || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
    return found;
  }

  async function resolve(a: AdmissionAttributes, name: string): Promise<Resolved> {
    if (!name) {
      let dc: PriorityClass | undefined;
      try { dc = await globalDefault(); } catch (err) { throw internalError(new Error(`error occurred while retrieving default priority class: ${(err as Error).message}`)); }
      if (dc) return { name: dc.metadata.name!, value: dc.value ?? 0, preemptionPolicy: dc.preemptionPolicy };
      return { name: '', value: defaultPriorityWhenNoDefaultClass, preemptionPolicy: defaultPreemptionPolicy };
    }
    try {
      if (!info) throw new StatusError(404, 'NotFound', 'not served');
      const pc = await deps.registry.get(info, undefined, name, undefined, true) as PriorityClass;
      return { name, value: pc.value ?? 0, preemptionPolicy: pc.preemptionPolicy };
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) throw admissionForbidden(a, `no PriorityClass with name ${name} was found`);
      throw internalError(new Error(`failed to resolve PriorityClass with name ${name}: ${(err as Error).message}`));
    }
  }

  async function admitPod(a: AdmissionAttributes): Promise<void> {
    const spec = (a.object as { spec?: CoreV1PodSpec }).spec;
    if (!spec || typeof spec !== 'object') return; // the strategy refuses it
    if (a.operation === 'UPDATE') {
      // set on create and immutable: a body that leaves them out keeps them
      const old = (a.oldObject as { spec?: CoreV1PodSpec } | undefined)?.spec;
      if (spec.priority == null && old?.priority != null) spec.priority = old.priority;
      if (spec.preemptionPolicy == null && old?.preemptionPolicy != null) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    const pc = await resolve(a, spec.priorityClassName ?? '');
    if (pc.name) spec.priorityClassName = pc.name; else delete spec.priorityClassName;
    if (spec.priority != null && spec.priority !== pc.value) {
      throw admissionForbidden(a, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${pc.value} from the given PriorityClass name`);
    }
    spec.priority = pc.value;
    if (pc.preemptionPolicy !== undefined) {
      if (spec.preemptionPolicy != null && spec.preemptionPolicy !== pc.preemptionPolicy) {
        throw admissionForbidden(a, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${pc.preemptionPolicy} from the given PriorityClass name`);
      }
      spec.preemptionPolicy = pc.preemptionPolicy;
    }
  }

  return {
    name: 'Priority',
    async admit(a) {
      if (!isPod(a) || !a.object || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
      await admitPod(a);
    },
    async validate(a) {
      if (a.subresource || a.resource.group !== 'scheduling.k8s.io' || a.resource.resource !== 'priorityclasses') return;
      if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || (a.object as PriorityClass | undefined)?.globalDefault !== true) return;
      let dc: PriorityClass | undefined;
      try { dc = await globalDefault(); } catch (err) { throw internalError(new Error(`failed to get default priority class: ${(err as Error).message}`)); }
      if (dc && (a.operation === 'CREATE' || dc.metadata.name !== a.object!.metadata.name)) {
        throw admissionForbidden(a, `PriorityClass ${dc.metadata.name} is already marked as default. Only one default can exist`);
      }
    },
  };
}
