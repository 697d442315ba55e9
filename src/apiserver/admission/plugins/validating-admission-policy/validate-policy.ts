// One policy evaluated for one request and one param: its matchConditions, then each
// validation's decision (with its message, messageExpression and reason), then its audit
// annotations, in kube-apiserver's validator order and words. Errors become decisions through
// the policy's failurePolicy: Fail denies with the error as message, Ignore admits.

import type { CelResult } from '@bufbuild/cel';
import type { CelAuthorizer, RequestResource } from '../../../../schema/cel/authorizer.ts';
import type { Compiled, CompiledPolicy } from './compiled-policy.ts';
import { cel } from '../../../../schema/cel/on-demand.ts';

export interface PolicyInputs {
  object: unknown; oldObject: unknown; params: unknown; request: unknown; namespaceObject: unknown;
  authorizer?: CelAuthorizer; requestResource?: RequestResource;
}

export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  reason?: string;
  /** the validation it came from (undefined: a match condition or an annotation) */
  index?: number;
}

export interface AnnotationResult { key: string; value?: string; error?: string }

export interface PolicyResult { matched: boolean; decisions: PolicyDecision[]; annotations: AnnotationResult[] }

/** Kubernetes' cap on a messageExpression's result and on an audit annotation value */
const maxMessageBytes = 5 * 1024;
const maxAnnotationBytes = 10 * 1024;

/** `variables`: each computed on first use, as Kubernetes' composited variables are */
class LazyVariables extends Map<string, unknown> {
  private readonly done = new Map<string, CelResult>();
  private readonly defs: Map<string, Compiled>;
  private readonly run: (c: Compiled) => CelResult;
  constructor(defs: Array<Compiled & { name: string }>, run: (c: Compiled) => CelResult) {
    super();
    this.defs = new Map(defs.map(d => [d.name, d]));
    this.run = run;
  }
  override has(name: string): boolean { return this.defs.has(name); }
  override get(name: string): unknown {
    const def = this.defs.get(name);
    if (!def) return undefined;
    let r = this.done.get(name);
    if (r === undefined) {
      r = def.error ? cel().celError(`composited variable "${name}" fails to compile: ${def.error}`) : this.run(def);
      this.done.set(name, r);
    }
    if (cel().isCelError(r)) throw new Error(r.message);
    return r;
  }
}

/** what evaluation needs of a policy: its variables (validating and mutating policies alike) */
export interface PolicyScope { variables: Array<Compiled & { name: string }> }

export type Run = (c: Compiled) => CelResult;

function evaluator(p: PolicyScope, inputs: PolicyInputs, authorizerValue: unknown): Run {
  const bindings: Record<string, unknown> = {
    object: cel().toCelInput(inputs.object), oldObject: cel().toCelInput(inputs.oldObject), params: cel().toCelInput(inputs.params),
    request: cel().toCelInput(inputs.request), namespaceObject: cel().toCelInput(inputs.namespaceObject),
  };
  if (authorizerValue !== undefined) bindings.authorizer = authorizerValue;
  const run = (c: Compiled): CelResult => {
    if (c.error) return cel().celError(`compilation error: ${c.error}`);
    const r = c.program!.run(bindings);
    return cel().isCelError(r) ? cel().celError(`expression '${c.expression}' resulted in error: ${r.message}`) : r;
  };
  bindings.variables = new LazyVariables(p.variables, c => c.program!.run(bindings));
  return run;
}

function errorDecision(p: CompiledPolicy, message: string, index?: number): PolicyDecision {
  return { action: p.failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message, index };
}

function messageFor(v: CompiledPolicy['validations'][number], run: Run): string {
  if (v.messageExpression && !v.messageExpression.error) {
    const r = run(v.messageExpression);
    if (typeof r === 'string') {
      const m = r.trim();
      if (m && Buffer.byteLength(m) <= maxMessageBytes && !m.includes('\n')) return m;
    }
  }
  if (v.message?.trim()) return v.message.trim();
  return `failed expression: ${v.check.expression.trim()}`;
}

/**
 * The matchConditions: any false skips the policy; otherwise errors (all of them, as Go's
 * aggregate prints several) fail the request under Fail and skip the policy under Ignore.
 */
export function matchConditionsOutcome(conditions: Compiled[], failurePolicy: string, run: Run): 'match' | 'skip' | { error: string } {
  const failures: string[] = [];
  for (const c of conditions) {
    const r = run(c);
    if (r === false) return 'skip';
    if (cel().isCelError(r)) failures.push(r.message);
    else if (typeof r !== 'boolean') failures.push(`expression '${c.expression}' resulted in unsupported return type: ${cel().celTypeName(r)}`);
  }
  if (!failures.length) return 'match';
  if (failurePolicy === 'Ignore') return 'skip';
  // Go's error aggregate: one error as itself, several as [a, b]
  return { error: failures.length === 1 ? failures[0]! : `[${failures.join(', ')}]` };
}

function evaluateAll(p: CompiledPolicy, run: Run): PolicyResult {
  const outcome = matchConditionsOutcome(p.matchConditions, p.failurePolicy, run);
  if (outcome === 'skip') return { matched: false, decisions: [], annotations: [] };
  if (outcome !== 'match') return { matched: true, decisions: [errorDecision(p, outcome.error)], annotations: [] };
  const decisions = p.validations.map((v, index): PolicyDecision => {
    const r = run(v.check);
    if (cel().isCelError(r)) return errorDecision(p, r.message, index);
    // anything but true denies (Kubernetes' type check would have refused a non-bool expression)
    if (r === true) return { action: 'admit', evaluation: 'admit', message: '', index };
    return { action: 'deny', evaluation: 'deny', message: messageFor(v, run), reason: v.reason || 'Invalid', index };
  });
  const annotations = p.auditAnnotations.flatMap((an): AnnotationResult[] => {
    const r = run(an.value);
    if (cel().isCelError(r)) return p.failurePolicy === 'Ignore' ? [] : [{ key: an.key, error: r.message }];
    if (r === null) return [];
    if (typeof r !== 'string') {
      return [{ key: an.key, error: `valueExpression '${an.value.expression}' resulted in unsupported return type: ${cel().celTypeName(r)}. Return type must be either string or null.` }];
    }
    const value = r.trim();
    return value ? [{ key: an.key, value: Buffer.from(value).subarray(0, maxAnnotationBytes).toString() }] : [];
  });
  return { matched: true, decisions, annotations };
}

/** runs `fn` with an evaluator over the inputs (the authorizer bound for its length) */
export function inScope<T>(p: PolicyScope, inputs: PolicyInputs, fn: (run: Run) => T): T {
  if (inputs.authorizer) return cel().withAuthorizer(inputs.authorizer, inputs.requestResource, value => fn(evaluator(p, inputs, value)));
  return fn(evaluator(p, inputs, undefined));
}

export function validatePolicy(p: CompiledPolicy, inputs: PolicyInputs): PolicyResult {
  return inScope(p, inputs, run => evaluateAll(p, run));
}
