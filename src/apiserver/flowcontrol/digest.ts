// The configuration the classifier uses, digested from the stored objects as kube-apiserver's APF
// controller does: levels whose spec it cannot use are left out, flow schemas naming a missing
// (or left out) level are skipped, the rest sorted by matchingPrecedence then name, and the
// mandatory exempt and catch-all objects imagined from the bootstrap ones when absent.

import type {
  FlowcontrolV1FlowSchema as FlowSchemaObject,
  FlowcontrolV1FlowSchemaSpec as FlowSchemaSpec,
  FlowcontrolV1PriorityLevelConfiguration as PriorityLevelObject,
} from '../../schema/generated/types.ts';
import { defaultFlowSchema, defaultPriorityLevel } from '../../registry/flowcontrol/defaults.ts';
import { mandatoryFlowSchemas, mandatoryPriorityLevels } from '../../registry/flowcontrol/bootstrap-objects.ts';
import type { PriorityLevel } from './types.ts';

export interface DigestedSchema {
  name: string;
  /** '' for an imagined mandatory schema */
  uid: string;
  spec: FlowSchemaSpec;
}

export interface Digest {
  /** in matching order */
  schemas: DigestedSchema[];
  levels: Map<string, PriorityLevel>;
  /** each stored flow schema's name and whether its level was found */
  found: Map<string, boolean>;
}

/** the level as the dispatcher needs it, or undefined when kube-apiserver would ignore the object as broken */
export function toPriorityLevel(name: string, uid: string, rawSpec: PriorityLevelObject['spec']): PriorityLevel | undefined {
  if (!rawSpec) return undefined;
  const holder = { spec: structuredClone(rawSpec) };
  defaultPriorityLevel(holder);
  const spec = holder.spec;
  const isExempt = spec.type === 'Exempt';
  // a level may not switch between exempt and limited: the union and the name must agree
  if ((spec.type === 'Limited') !== !!spec.limited || isExempt !== !!spec.exempt || isExempt !== (name === 'exempt')) return undefined;
  if (isExempt) {
    return { name, uid, exempt: true, nominalConcurrencyShares: spec.exempt!.nominalConcurrencyShares ?? 0, lendablePercent: spec.exempt!.lendablePercent ?? 0 };
  }
  const limited = spec.limited;
  if (!limited) return undefined;
  const response = limited.limitResponse;
  if (!response || (response.type === 'Reject') !== !response.queuing) return undefined;
  const q = response.queuing;
  if (q && (q.queues! < 1 || q.handSize! < 1 || q.handSize! > q.queues! || q.queueLengthLimit! < 1)) return undefined;
  return {
    name, uid, exempt: false,
    nominalConcurrencyShares: limited.nominalConcurrencyShares!,
    lendablePercent: limited.lendablePercent!,
    ...(limited.borrowingLimitPercent !== undefined ? { borrowingLimitPercent: limited.borrowingLimitPercent } : {}),
    ...(q ? { queuing: { queues: q.queues!, handSize: q.handSize!, queueLengthLimit: q.queueLengthLimit! } } : {}),
  };
}

function byPrecedence(a: DigestedSchema, b: DigestedSchema): number {
  const d = (a.spec.matchingPrecedence ?? 0) - (b.spec.matchingPrecedence ?? 0);
  if (d !== 0) return d;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function digest(levelObjects: Iterable<PriorityLevelObject>, schemaObjects: Iterable<FlowSchemaObject>): Digest {
  const levels = new Map<string, PriorityLevel>();
  for (const obj of levelObjects) {
    const name = obj.metadata?.name ?? '';
    const level = toPriorityLevel(name, obj.metadata?.uid ?? '', obj.spec);
    if (level) levels.set(name, level);
  }
  for (const proto of mandatoryPriorityLevels) {
    if (!levels.has(proto.name)) levels.set(proto.name, toPriorityLevel(proto.name, '', proto.spec)!);
  }
  const schemas: DigestedSchema[] = [];
  const found = new Map<string, boolean>();
  for (const obj of schemaObjects) {
    const name = obj.metadata?.name ?? '';
    if (!obj.spec) continue;
    const holder = { spec: structuredClone(obj.spec) };
    defaultFlowSchema(holder);
    const ok = levels.has(holder.spec.priorityLevelConfiguration?.name ?? '');
    found.set(name, ok);
    if (ok) schemas.push({ name, uid: obj.metadata?.uid ?? '', spec: holder.spec });
  }
  schemas.sort(byPrecedence);
  const [exempt, catchAll] = [mandatoryFlowSchemas.find(f => f.name === 'exempt')!, mandatoryFlowSchemas.find(f => f.name === 'catch-all')!];
  if (!schemas.some(s => s.name === exempt.name)) schemas.unshift({ name: exempt.name, uid: '', spec: exempt.spec });
  if (!schemas.some(s => s.name === catchAll.name)) schemas.push({ name: catchAll.name, uid: '', spec: catchAll.spec });
  return { schemas, levels, found };
}
