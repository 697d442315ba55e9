// --encryption-provider-config: an `apiserver.config.k8s.io/v1` EncryptionConfiguration, read
// and checked as kube-apiserver checks it (its field paths and messages), into the list of
// resource rules the encrypting storage applies.

import { readFile } from 'node:fs/promises';
import { yamlLibrary } from '../../api/yaml-library.ts';

export type ProviderConfig =
  | { type: 'identity' }
  | { type: 'aescbc' | 'aesgcm' | 'secretbox'; keys: Array<{ name: string; secret: Buffer }> }
  | { type: 'kms'; name: string; endpoint: string; timeoutMs: number };

export interface ResourceRule {
  /** as written: `secrets`, `deployments.apps`, `*.apps`, `*.`, `*.*` */
  resources: string[];
  providers: ProviderConfig[];
}

export interface EncryptionConfig { rules: ResourceRule[] }

const keyLengths: Record<string, number[]> = { aescbc: [16, 24, 32], aesgcm: [16, 24, 32], secretbox: [32] };
const providerTypes = ['identity', 'aescbc', 'aesgcm', 'secretbox', 'kms'];
const resourcePattern = /^(\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.(\*|[a-z0-9]([-a-z0-9.]*[a-z0-9])?)?)?$/;

function durationMs(text: unknown): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(String(text));
  if (!m) return NaN;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms']!;
}

/** throws an Error listing every problem, one per line, as kube-apiserver refuses to start */
export function parseEncryptionConfig(text: string, source = 'encryption provider configuration'): EncryptionConfig {
  let doc: any;
  try { doc = yamlLibrary().parse(text); } catch (err) { throw new Error(`error while parsing file ${source}: ${(err as Error).message}`); }
  if (!doc || typeof doc !== 'object') throw new Error(`error while parsing file ${source}: empty configuration`);
  if (doc.kind !== 'EncryptionConfiguration' || !['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1'].includes(doc.apiVersion)) {
    throw new Error(`error while parsing file ${source}: no kind "${doc.kind ?? ''}" is registered for version "${doc.apiVersion ?? ''}"`);
  }
  const errs: string[] = [];
  const rules: ResourceRule[] = [];
  const resources: unknown[] = Array.isArray(doc.resources) ? doc.resources : [];
  if (resources.length === 0) errs.push('resources: Required value: EncryptionConfiguration.Resources must contain at least one resource');
  const seenResources = new Set<string>();
  resources.forEach((r: any, i) => {
    const at = `resources[${i}]`;
    const names: string[] = Array.isArray(r?.resources) ? r.resources.map(String) : [];
    if (names.length === 0) errs.push(`${at}.resources: Required value: EncryptionConfiguration.Resources[${i}].Resources must contain at least one resource`);
    names.forEach((n, j) => {
      if (!resourcePattern.test(n) || n !== n.toLowerCase()) errs.push(`${at}.resources[${j}]: Invalid value: "${n}": resource name must be lowercase and a valid resource or group wildcard`);
      else if (seenResources.has(n)) errs.push(`${at}.resources[${j}]: Duplicate value: "${n}"`);
      seenResources.add(n);
    });
    const providers: ProviderConfig[] = [];
    const list: unknown[] = Array.isArray(r?.providers) ? r.providers : [];
    if (list.length === 0) errs.push(`${at}.providers: Required value: EncryptionConfiguration.Resources[${i}].Providers must contain at least one provider`);
    list.forEach((p: any, j) => {
      const pat = `${at}.providers[${j}]`;
      const types = Object.keys(p ?? {}).filter(k => providerTypes.includes(k));
      if (types.length !== 1) {
        errs.push(types.length ? `${pat}: Invalid value: "${types.join(',')}": more than one provider specified in a single element, should split into different list elements` : `${pat}: Invalid value: "": provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity`);
        return;
      }
      const type = types[0]!;
      const body = p[type] ?? {};
      if (type === 'identity') { providers.push({ type: 'identity' }); return; }
      if (type === 'kms') {
        const kat = `${pat}.kms`;
        if (body.apiVersion !== 'v2') errs.push(`${kat}.apiVersion: Invalid value: "${body.apiVersion ?? 'v1'}": ${body.apiVersion === 'v1' || body.apiVersion === undefined ? 'KMSv1 is deprecated and not offered by orch; use apiVersion v2' : 'unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported'}`);
        if (!body.name) errs.push(`${kat}.name: Required value: name is required`);
        else if (String(body.name).includes(':')) errs.push(`${kat}.name: Invalid value: "${body.name}": should not contain ':'`);
        const endpoint = String(body.endpoint ?? '');
        if (!endpoint) errs.push(`${kat}.endpoint: Required value: endpoint is required`);
        else if (!endpoint.startsWith('unix://')) errs.push(`${kat}.endpoint: Invalid value: "${endpoint}": unsupported scheme "${endpoint.split('://')[0]}" for KMS provider, only unix is supported`);
        const timeoutMs = durationMs(body.timeout) ?? 3000;
        if (!(timeoutMs > 0)) errs.push(`${kat}.timeout: Invalid value: "${body.timeout}": timeout should be a positive value`);
        if (body.cachesize !== undefined) errs.push(`${kat}.cachesize: Invalid value: ${body.cachesize}: cachesize is not supported in v2`);
        providers.push({ type: 'kms', name: String(body.name ?? ''), endpoint, timeoutMs });
        return;
      }
      const keys: Array<{ name: string; secret: Buffer }> = [];
      const kat = `${pat}.${type}.keys`;
      const ks: unknown[] = Array.isArray(body.keys) ? body.keys : [];
      if (ks.length === 0) errs.push(`${kat}: Required value: keys (list of at least one key) is required`);
      const names = new Set<string>();
      ks.forEach((k: any, n) => {
        if (!k?.name) errs.push(`${kat}[${n}].name: Required value: key material name is required`);
        else if (String(k.name).includes(':')) errs.push(`${kat}[${n}].name: Invalid value: "${k.name}": should not contain ':'`);
        else if (names.has(k.name)) errs.push(`${kat}[${n}].name: Duplicate value: "${k.name}"`);
        names.add(String(k?.name ?? ''));
        const text = String(k?.secret ?? '');
        if (!text) { errs.push(`${kat}[${n}].secret: Required value: key material is required`); return; }
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) { errs.push(`${kat}[${n}].secret: Invalid value: "REDACTED": secrets must be base64 encoded`); return; }
        const secret = Buffer.from(text, 'base64');
        if (!keyLengths[type]!.includes(secret.length)) errs.push(`${kat}[${n}].secret: Invalid value: "REDACTED": secret is not of the expected length, got ${secret.length}, expected one of [${keyLengths[type]!.join(' ')}]`);
        keys.push({ name: String(k?.name ?? ''), secret });
      });
      providers.push({ type: type as 'aescbc', keys });
    });
    rules.push({ resources: names, providers });
  });
  if (errs.length) throw new Error(`error while parsing file ${source}: ${errs.join(', ')}`);
  return { rules };
}

export async function readEncryptionConfig(path: string): Promise<EncryptionConfig> {
  return parseEncryptionConfig(await readFile(path, 'utf8'), path);
}

/** the rule for a group/resource: exact names first as written, then group wildcards, then `*.*` */
export function ruleFor(config: EncryptionConfig, group: string, resource: string): ResourceRule | undefined {
  const exact = group ? `${resource}.${group}` : resource;
  const candidates = [exact, group ? `*.${group}` : '*.', '*.*'];
  if (!group) candidates.unshift(`${resource}.`);
  for (const c of candidates) {
    const hit = config.rules.find(r => r.resources.includes(c));
    if (hit) return hit;
  }
  return undefined;
}
