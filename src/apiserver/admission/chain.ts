// The admission chain: the enabled plugins in Kubernetes' order. A request runs every plugin's
// mutating half (in order), then every plugin's validating half (in order), so that validation
// sees the object as all mutations left it; the first refusal ends the request. When a webhook
// or mutating policy changed the object, the mutating phase runs once more (reinvocation.ts).

import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from './types.ts';
import { admissionPlugins } from './plugins.ts';
import { ReinvocationContext } from './reinvocation.ts';

export class AdmissionChain {
  readonly plugins: readonly AdmissionPlugin[];

  constructor(plugins: readonly AdmissionPlugin[]) { this.plugins = plugins; }

  get names(): string[] { return this.plugins.map(p => p.name); }

  /** the mutating phase */
  async admit(a: AdmissionAttributes): Promise<void> {
    const ctx = a.reinvocation ??= new ReinvocationContext();
    for (const p of this.plugins) if (p.admit && runs(p, a)) await p.admit(a);
    if (!ctx.shouldReinvoke || ctx.isReinvoke) return;
    ctx.isReinvoke = true;
    for (const p of this.plugins) if (p.admit && runs(p, a)) await p.admit(a);
  }

  /** the validating phase */
  async validate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.validate && runs(p, a)) await p.validate(a);
  }
}

/** a plugin that writes elsewhere sits out dry runs, which must change nothing */
function runs(p: AdmissionPlugin, a: AdmissionAttributes): boolean {
  return !(a.dryRun && p.sideEffects);
}

/** the chain of the named plugins (already checked and ordered: see options.ts) */
export function buildAdmissionChain(names: readonly string[], deps: AdmissionDeps): AdmissionChain {
  const byName = new Map(admissionPlugins.map(p => [p.name, p]));
  return new AdmissionChain(names.map(n => {
    const row = byName.get(n);
    if (!row) throw new Error(`admission plugin ${JSON.stringify(n)} is unknown`);
    return row.factory(deps);
  }));
}
