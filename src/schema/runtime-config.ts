// The --runtime-config flag, read the way kube-apiserver reads it: a comma-separated list of
// `key=value` entries where the key is `api/all`, `api/ga`, `api/beta`, `api/alpha`,
// `<group>/<version>` (`api/v1` is the core group) or `<group>/<version>/<resource>`, and the
// value is `true` or `false` (a bare key means true). Later entries win over earlier ones for the
// same key; the broad switches apply before the specific ones, whatever their order.

import { dns1123Subdomain } from '../api/names.ts';

export type Stability = 'ga' | 'beta' | 'alpha';

export interface RuntimeConfig {
  all?: boolean;
  /** api/ga, api/beta, api/alpha */
  stability: Partial<Record<Stability, boolean>>;
  /** `<group>/<version>` (core group written as '') → enabled */
  versions: Map<string, boolean>;
  /** `<group>/<version>/<resource>` → enabled */
  resources: Map<string, boolean>;
}

export function emptyRuntimeConfig(): RuntimeConfig {
  return { stability: {}, versions: new Map(), resources: new Map() };
}

function parseValue(key: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'true') return true;
  if (raw === 'false') return false;
  throw new Error(`invalid value ${key}=${raw} in --runtime-config: the value must be true or false`);
}

const versionPattern = /^v\d+(?:(?:alpha|beta)\d+)?$/;

export function parseRuntimeConfig(text: string | undefined): RuntimeConfig {
  const cfg = emptyRuntimeConfig();
  if (!text) return cfg;
  for (const entry of text.split(',')) {
    const item = entry.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim();
    const value = parseValue(key, eq < 0 ? undefined : item.slice(eq + 1).trim());
    if (key === 'api/all') { cfg.all = value; continue; }
    if (key === 'api/ga' || key === 'api/beta' || key === 'api/alpha') {
      cfg.stability[key.slice(4) as Stability] = value;
      continue;
    }
    const tokens = key.split('/');
    if (tokens.length < 2 || tokens.length > 3 || tokens.some(t => t === '')) {
      throw new Error(`invalid key ${JSON.stringify(key)} in --runtime-config: expected api/all, api/ga, api/beta, api/alpha, <group>/<version> or <group>/<version>/<resource>`);
    }
    const group = tokens[0] === 'api' ? '' : tokens[0]!;
    const version = tokens[1]!;
    if (!versionPattern.test(version)) throw new Error(`invalid key ${JSON.stringify(key)} in --runtime-config: ${JSON.stringify(version)} is not an API version`);
    if (group && dns1123Subdomain(group).length) throw new Error(`invalid key ${JSON.stringify(key)} in --runtime-config: ${JSON.stringify(group)} is not an API group name`);
    if (tokens.length === 3) {
      const resource = tokens[2]!;
      if (resource !== resource.toLowerCase()) {
        throw new Error(`invalid key ${key} in --runtime-config: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`);
      }
      cfg.resources.set(`${group}/${version}/${resource}`, value);
    } else {
      cfg.versions.set(`${group}/${version}`, value);
    }
  }
  return cfg;
}

export function stabilityOf(version: string): Stability {
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  return 'ga';
}

/** whether a group-version is served: Kubernetes' defaults (GA on, beta and alpha off), then the flag */
export function versionEnabled(cfg: RuntimeConfig, group: string, version: string): boolean {
  const stability = stabilityOf(version);
  let on = stability === 'ga';
  if (cfg.all !== undefined) on = cfg.all;
  const byStability = cfg.stability[stability];
  if (byStability !== undefined) on = byStability;
  return cfg.versions.get(`${group}/${version}`) ?? on;
}

/** whether one resource of a group-version is served (a resource entry beats its version's setting) */
export function resourceEnabled(cfg: RuntimeConfig, group: string, version: string, resource: string): boolean {
  return cfg.resources.get(`${group}/${version}/${resource}`) ?? versionEnabled(cfg, group, version);
}

/** Kubernetes' order of versions within a group: GA before beta before alpha, higher numbers first */
export function compareVersions(a: string, b: string): number {
  const pa = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(a);
  const pb = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  const rank = (s: string | undefined) => (s === undefined ? 2 : s === 'beta' ? 1 : 0);
  return rank(pb[2]) - rank(pa[2]) || Number(pb[1]) - Number(pa[1]) || Number(pb[3] ?? 0) - Number(pa[3] ?? 0);
}
