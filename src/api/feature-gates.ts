// Feature gates as Kubernetes components take them: `--feature-gates Name=bool,…`, parsed and
// refused in component-base's words, over a table of the gates a component knows with their
// stage and default. The API server's table holds the gates of its behaviour that orch
// implements; a gate orch does not implement is refused rather than silently ignored.

import { parseGoBool } from './go-bool.ts';

export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  default: boolean;
  stage: Stage;
  /** GA or deprecated gates locked to their default: setting the other value is an error */
  lockToDefault?: boolean;
}

/** the gates of the API server (and the commands that share its flags) that orch implements */
export const apiServerFeatureGates: Readonly<Record<string, FeatureSpec>> = {
  AllowUnsafeMalformedObjectDeletion: { default: false, stage: 'ALPHA' },
  APIResponseCompression: { default: true, stage: 'BETA' },
  CBORServingAndStorage: { default: false, stage: 'ALPHA' },
  ShardedListAndWatch: { default: false, stage: 'ALPHA' },
};

export interface FeatureGates {
  enabled(name: string): boolean;
  /** every known gate with its effective value, by name (for the start log) */
  effective(): Record<string, boolean>;
}

/**
 * `Name=bool,…` as component-base reads it: spaces around names and values trimmed, empty items
 * skipped, booleans as Go's strconv.ParseBool reads them, `AllAlpha`/`AllBeta` setting every
 * alpha/beta gate not named on its own. Throws with Kubernetes' message.
 */
export function parseFeatureGates(text: string, known: Readonly<Record<string, FeatureSpec>>): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const item of text.split(',')) {
    if (item.trim() === '') continue;
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${item.trim()}`);
    const name = item.slice(0, eq).trim();
    const raw = item.slice(eq + 1).trim();
    const value = parseGoBool(raw);
    if (value === undefined) throw new Error(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    if (name !== 'AllAlpha' && name !== 'AllBeta') {
      const spec = known[name];
      if (!spec) throw new Error(`unrecognized feature gate: ${name}`);
      if (spec.lockToDefault && value !== spec.default) throw new Error(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
    }
    out[name] = value;
  }
  return out;
}

export function featureGates(set: Record<string, boolean>, known: Readonly<Record<string, FeatureSpec>>): FeatureGates {
  const value = (name: string): boolean => {
    const spec = known[name];
    if (!spec) return false;
    if (name in set) return set[name]!;
    if (spec.stage === 'ALPHA' && 'AllAlpha' in set) return set['AllAlpha']!;
    if (spec.stage === 'BETA' && 'AllBeta' in set) return set['AllBeta']!;
    return spec.default;
  };
  return {
    enabled: value,
    effective: () => Object.fromEntries(Object.keys(known).sort().map(n => [n, value(n)])),
  };
}
