// Reinvocation of the mutating phase, as kube-apiserver's reinvoker does it: when a mutating
// webhook or MutatingAdmissionPolicy changed the object, the whole mutating phase runs once
// more (the built-in plugins all again, so their defaults follow the change), and of the
// webhooks and policies only those that asked `reinvocationPolicy: IfNeeded` and ran before a
// later change. Never more than one extra run: a change made in it calls no one back.

import { deepClone, jsonEqual, type KubeObject } from '../../api/object.ts';

/** one request's mutating phase: whether it runs again, and each plugin's memory across both runs */
export class ReinvocationContext {
  /** the phase is in its second (and last) run */
  isReinvoke = false;
  /** something changed the object in a way that calls for the second run */
  shouldReinvoke = false;
  private values = new Map<string, unknown>();

  /** the state a plugin keeps across both runs, made on its first use */
  value<T>(plugin: string, make: () => T): T {
    if (!this.values.has(plugin)) this.values.set(plugin, make());
    return this.values.get(plugin) as T;
  }
}

const notYet = Symbol('not yet run');

/**
 * What a webhook or policy plugin remembers: who asked IfNeeded and ran before the latest change
 * (they are called again), who is to be called in the second run, and the object as the plugin
 * last left it (a change the built-in plugins make in the second run counts as a later change).
 */
export class PluginReinvocation {
  private lastOutput: KubeObject | undefined | typeof notYet = notYet;
  private invokedBeforeChange = new Set<string>();
  private again = new Set<string>();
  private readonly ctx: ReinvocationContext;

  constructor(ctx: ReinvocationContext) { this.ctx = ctx; }

  get isReinvoke(): boolean { return this.ctx.isReinvoke; }

  /** at the start of the plugin's run, given the object as it reaches the plugin */
  begin(object: KubeObject | undefined): void {
    if (this.ctx.isReinvoke && this.lastOutput !== notYet && !jsonEqual(this.lastOutput ?? null, object ?? null)) this.requireAgain();
  }

  /** at the end of the plugin's run (refusals included) */
  end(object: KubeObject | undefined): void {
    this.lastOutput = object === undefined ? undefined : deepClone(object);
  }

  /** whether `key` is called in this run: always in the first, in the second only if asked back */
  shouldCall(key: string): boolean {
    return !this.ctx.isReinvoke || this.again.has(key);
  }

  /** an invocation changed the object: those that asked IfNeeded before it are called again, and the phase runs again */
  changed(): void {
    this.requireAgain();
    this.ctx.shouldReinvoke = true;
  }

  /** `key` was called; with IfNeeded it is called again should a later one change the object */
  invoked(key: string, reinvocationPolicy: string | undefined): void {
    if (reinvocationPolicy === 'IfNeeded') this.invokedBeforeChange.add(key);
  }

  private requireAgain(): void {
    for (const k of this.invokedBeforeChange) this.again.add(k);
    this.invokedBeforeChange.clear();
  }
}

/** the plugin's reinvocation memory for this request (a plugin called alone gets a one-run context) */
export function pluginReinvocation(plugin: string, ctx: ReinvocationContext | undefined): PluginReinvocation {
  const c = ctx ?? new ReinvocationContext();
  return c.value(plugin, () => new PluginReinvocation(c));
}
