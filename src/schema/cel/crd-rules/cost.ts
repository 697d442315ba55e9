// Runtime cost of CRD rules, counted as cel-go's cost tracker counts most of it: each function
// or operator call costs 1, or a tenth of its operands' size for string and list work (concat,
// comparison, contains, matches...), and each iteration of a macro costs 1. Evaluation stops
// with cel-go's "operation cancelled: actual cost limit exceeded" once an expression passes its
// limit. Not counted (cel-go counts 1 each): reading a variable, a field, or an index.
// @bufbuild/cel has no cost hooks, so the metered environment wraps every function the planner
// resolves, and compile adds a tick call to each comprehension's loop condition.

import { celFunc, CelScalar, isCelList, isCelMap, type CelEnv, type CelValue } from '@bufbuild/cel';
import type { CelExpr } from '../compile.ts';
import { kubernetesEnv } from '../environment.ts';

export const costExceeded = 'operation cancelled: actual cost limit exceeded';

class CostExceeded extends Error {}

/** the meter of the evaluation running now (evaluation is synchronous, so one at a time) */
let current: { cost: number; limit: number } | undefined;

function sizeOf(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (isCelList(v)) return v.size;
  if (isCelMap(v)) return v.size;
  return 0;
}

/** functions whose cost grows with what they read, as cel-go prices them */
const sized = new Set(['_+_', '_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', 'contains', 'startsWith', 'endsWith', 'matches',
  'size', 'string', 'bytes', 'split', 'join', 'lowerAscii', 'upperAscii', 'replace', 'trim', 'indexOf', 'lastIndexOf', 'substring',
  'find', 'findAll', '@in']);

function charge(n: number): void {
  if (!current) return;
  current.cost += n;
  if (current.cost > current.limit) throw new CostExceeded(costExceeded);
}

function callCost(name: string, target: unknown, args: readonly unknown[]): number {
  if (!sized.has(name)) return 1;
  const total = [target, ...args].reduce<number>((n, a) => n + sizeOf(a), 0);
  return Math.max(1, Math.ceil(total * 0.1));
}

export const tickFunction = '@crd_cost_tick';
const tick = celFunc(tickFunction, [CelScalar.DYN], CelScalar.DYN, (v: CelValue) => { charge(1); return v; });

type Funcs = CelEnv['funcs'];
type Group = NonNullable<ReturnType<Funcs['find']>>;

function meteredFuncs(base: Funcs): Funcs {
  const cache = new Map<string, Group | undefined>();
  const meter = (g: Group): Group => new Proxy(g, {
    get(t, p, r) {
      if (p !== 'call') return Reflect.get(t, p, r);
      return (id: number, target: unknown, args: unknown[]) => { charge(callCost(t.name, target, args)); return t.call(id as never, target as never, args as never); };
    },
  });
  return new Proxy(base, {
    get(t, p, r) {
      if (p !== 'find') return Reflect.get(t, p, r);
      return (name: string) => {
        if (name === tickFunction) return tick as unknown as Group;
        if (!cache.has(name)) { const g = t.find(name); cache.set(name, g && meter(g)); }
        return cache.get(name);
      };
    },
  });
}

/** kubernetesEnv whose calls are charged to the running meter */
export const meteredEnv: CelEnv = { namespace: kubernetesEnv.namespace, registry: kubernetesEnv.registry, funcs: meteredFuncs(kubernetesEnv.funcs), variables: kubernetesEnv.variables } as CelEnv;

/** makes each iteration of every macro charge 1, by wrapping its loop condition in a tick */
export function addIterationTicks(e: CelExpr | undefined): void {
  if (!e) return;
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr': addIterationTicks(k.value.operand); return;
    case 'callExpr': addIterationTicks(k.value.target); k.value.args.forEach(addIterationTicks); return;
    case 'listExpr': k.value.elements.forEach(addIterationTicks); return;
    case 'structExpr': k.value.entries.forEach(en => { if (en.keyKind.case === 'mapKey') addIterationTicks(en.keyKind.value); addIterationTicks(en.value); }); return;
    case 'comprehensionExpr': {
      const c = k.value;
      [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result].forEach(addIterationTicks);
      if (c.loopCondition) {
        const cond = c.loopCondition;
        c.loopCondition = { ...cond, exprKind: { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: tickFunction, args: [cond] } } } as CelExpr;
      }
      return;
    }
    default: return;
  }
}

export interface Metered<T> { result: T; cost: number; exceeded: boolean }

/** runs `fn` charging its calls against `limit`; `exceeded` when it stopped for cost */
export function metered<T>(limit: number, fn: () => T): Metered<T> {
  const outer = current;
  const meter = { cost: 0, limit };
  current = meter;
  try {
    const result = fn();
    return { result, cost: meter.cost, exceeded: meter.cost > limit };
  } finally {
    current = outer;
  }
}
