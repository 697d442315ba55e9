// A FlowClassifier for tests of APF's dispatcher: fixed priority levels, and a rule from the
// request's user to its FlowSchema, level and distinguisher (the real classifier matches
// FlowSchema objects; the dispatcher needs only its answers).

import type { FlowClassification, FlowClassifier, PriorityLevel } from '../../src/apiserver/flowcontrol/types.ts';
import type { User } from '../../src/apiserver/user.ts';
import type { RequestInfo } from '../../src/apiserver/request-info.ts';

export function level(name: string, spec: Partial<PriorityLevel> = {}): PriorityLevel {
  return { name, uid: `uid-pl-${name}`, exempt: false, nominalConcurrencyShares: 30, lendablePercent: 0, ...spec };
}

export interface Rule { flowSchema: string; level: string; distinguisher?: (user: User, info: RequestInfo) => string }

export class TestClassifier implements FlowClassifier {
  levels: PriorityLevel[];
  private rule: (user: User, info: RequestInfo) => Rule;
  private listeners: (() => void)[] = [];
  constructor(levels: PriorityLevel[], rule: (user: User, info: RequestInfo) => Rule) {
    this.levels = levels;
    this.rule = rule;
  }
  classify(user: User, info: RequestInfo): FlowClassification {
    const r = this.rule(user, info);
    const pl = this.levels.find(l => l.name === r.level);
    if (!pl) throw new Error(`no level ${r.level}`);
    return { flowSchema: { name: r.flowSchema, uid: `uid-fs-${r.flowSchema}` }, priorityLevel: pl, distinguisher: r.distinguisher?.(user, info) ?? '' };
  }
  priorityLevels(): PriorityLevel[] { return this.levels; }
  onChange(listener: () => void): void { this.listeners.push(listener); }
  /** replaces the levels and tells the dispatcher, as a configuration write would */
  setLevels(levels: PriorityLevel[]): void {
    this.levels = levels;
    for (const l of this.listeners) l();
  }
}
