// Shard selectors (the list option `shardSelector`, behind the ShardedListAndWatch gate): a CEL
// expression of `shardRange(object.metadata.uid|namespace, '0x…', '0x…')` terms joined by `||`,
// read with a real CEL parser. An object belongs to the shard when the 64-bit FNV-1a hash of the
// named field falls in one of the half-open ranges; every server computes the same answer.

import type * as Cel from '@bufbuild/cel';
import { lazyModule } from '../lazy-module.ts';
import type { KubeObject } from '../object.ts';

export interface ShardSelector {
  /** the expression as given, echoed in the list's metadata.shardInfo.selector */
  text: string;
  field: 'uid' | 'namespace';
  ranges: Array<{ start: bigint; end: bigint }>;
  matches(obj: KubeObject): boolean;
}

/** a selector that cannot be honoured; the message says exactly what is wrong */
export class ShardSelectorError extends Error {}

const cel = lazyModule<typeof Cel>('@bufbuild/cel');

type Expr = ReturnType<typeof Cel.parse>['expr'];

const fieldPaths: Record<string, 'uid' | 'namespace'> = { 'object.metadata.uid': 'uid', 'object.metadata.namespace': 'namespace' };
const startForm = /^0x[0-9a-f]{16}$/;
const endForm = /^0x(?:[0-9a-f]{16}|10000000000000000)$/;
const offset = 0xcbf29ce484222325n;
const prime = 0x100000001b3n;

/** 64-bit FNV-1a of the UTF-8 bytes of `s` */
export function fnv1a64(s: string): bigint {
  let h = offset;
  for (const b of Buffer.from(s, 'utf8')) h = BigInt.asUintN(64, (h ^ BigInt(b)) * prime);
  return h;
}

export function parseShardSelector(text: string): ShardSelector {
  let expr: Expr;
  try {
    expr = cel().parse(text).expr;
  } catch (err) {
    throw new ShardSelectorError(`invalid shard selector: ${(err as Error).message}`);
  }
  const terms: Expr[] = [];
  const collect = (e: Expr | undefined) => {
    if (e?.exprKind.case === 'callExpr' && e.exprKind.value.function === '_||_') e.exprKind.value.args.forEach(collect);
    else if (e) terms.push(e);
  };
  collect(expr);
  let field: 'uid' | 'namespace' | undefined;
  const ranges = terms.map(term => {
    const call = term.exprKind.case === 'callExpr' ? term.exprKind.value : undefined;
    if (!call || call.function !== 'shardRange' || call.target) {
      throw new ShardSelectorError('invalid shard selector: only shardRange(<field>, \'<hex-start>\', \'<hex-end>\') terms joined by || are supported');
    }
    if (call.args.length !== 3) throw new ShardSelectorError(`invalid shard selector: shardRange takes 3 arguments, got ${call.args.length}`);
    const path = selectPath(call.args[0]);
    const f = path === undefined ? undefined : fieldPaths[path];
    if (!f) throw new ShardSelectorError(`invalid shard selector: unsupported field path ${path ?? '(not a field)'}: supported are object.metadata.uid and object.metadata.namespace`);
    if (field && f !== field) throw new ShardSelectorError('invalid shard selector: all shardRange terms must use the same field path');
    field = f;
    const start = stringArg(call.args[1], 'start');
    const end = stringArg(call.args[2], 'end');
    if (!startForm.test(start)) throw new ShardSelectorError(`invalid shard selector: start ${JSON.stringify(start)} must be 0x followed by 16 lowercase hex digits`);
    if (!endForm.test(end)) throw new ShardSelectorError(`invalid shard selector: end ${JSON.stringify(end)} must be 0x followed by 16 lowercase hex digits, or 0x10000000000000000`);
    const range = { start: BigInt(start), end: BigInt(end) };
    if (range.start >= range.end) throw new ShardSelectorError(`invalid shard selector: start ${start} must be less than end ${end}`);
    return range;
  });
  const key = field!;
  return {
    text, field: key, ranges,
    matches(obj) {
      const h = fnv1a64(String(obj.metadata[key] ?? ''));
      return ranges.some(r => h >= r.start && h < r.end);
    },
  };
}

function selectPath(e: Expr | undefined): string | undefined {
  if (!e) return undefined;
  if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
  if (e.exprKind.case === 'selectExpr' && !e.exprKind.value.testOnly) {
    const inner = selectPath(e.exprKind.value.operand);
    return inner === undefined ? undefined : `${inner}.${e.exprKind.value.field}`;
  }
  return undefined;
}

function stringArg(e: Expr | undefined, what: string): string {
  if (e?.exprKind.case === 'constExpr' && e.exprKind.value.constantKind.case === 'stringValue') return e.exprKind.value.constantKind.value;
  throw new ShardSelectorError(`invalid shard selector: the ${what} of a shardRange must be a string literal`);
}
