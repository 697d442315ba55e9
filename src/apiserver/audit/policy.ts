// The audit policy (`audit.k8s.io/v1` Policy): read from --audit-policy-file, validated with
// Kubernetes' messages, and asked per request which level and stages its events get. The first
// rule that matches decides, as in kube-apiserver; no match means no event.

import { readFile } from 'node:fs/promises';
import { yamlLibrary } from '../../api/yaml-library.ts';
import { fieldErrorMessage, type FieldError } from '../../api/status.ts';
import { dns1123Subdomain } from '../../api/names.ts';
import type { User } from '../user.ts';

export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

const levels: Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const stages: Stage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

export interface GroupResources { group?: string; resources?: string[]; resourceNames?: string[] }

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy { rules: PolicyRule[]; omitStages?: Stage[]; omitManagedFields?: boolean }

/** what a request is, as the rules look at it */
export interface AuditAttributes {
  user: User;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** the outcome for one request: its level, the stages not written, and whether managedFields go */
export interface RequestAuditConfig { level: Level; omitStages: ReadonlySet<Stage>; omitManagedFields: boolean }

const none: RequestAuditConfig = { level: 'None', omitStages: new Set(), omitManagedFields: false };

export function levelAtLeast(level: Level, min: Level): boolean {
  return levels.indexOf(level) >= levels.indexOf(min);
}

function listed(values: string[] | undefined, v: string): boolean {
  return !values?.length || values.includes(v);
}

function matchesResource(rule: PolicyRule, a: AuditAttributes): boolean {
  // an empty namespace in the list stands for cluster-scoped requests
  if (rule.namespaces?.length && !rule.namespaces.includes(a.namespace ?? '')) return false;
  if (!rule.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return rule.resources.some(gr => {
    if ((gr.group ?? '') !== a.apiGroup) return false;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(a.name ?? '')) return false;
    return gr.resources.some(r => r === '*' || r === combined
      || (!!a.subresource && r === `*/${a.subresource}`)
      || (r.endsWith('/*') && r.slice(0, -2) === a.resource));
  });
}

function matchesNonResource(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.resources?.length || rule.namespaces?.length) return false;
  if (!rule.nonResourceURLs?.length) return true;
  return rule.nonResourceURLs.some(u => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))));
}

export function ruleMatches(rule: PolicyRule, a: AuditAttributes): boolean {
  if (!listed(rule.verbs, a.verb)) return false;
  if (rule.users?.length && !rule.users.includes(a.user.name)) return false;
  if (rule.userGroups?.length && !rule.userGroups.some(g => a.user.groups.includes(g))) return false;
  if (!a.isResourceRequest) return matchesNonResource(rule, a);
  return !rule.nonResourceURLs?.length && matchesResource(rule, a);
}

export function evaluatePolicy(policy: Policy, a: AuditAttributes): RequestAuditConfig {
  const rule = policy.rules.find(r => ruleMatches(r, a));
  if (!rule || rule.level === 'None') return none;
  return {
    level: rule.level,
    omitStages: new Set([...(policy.omitStages ?? []), ...(rule.omitStages ?? [])]),
    omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
  };
}

/** Kubernetes' checks of each rule, as field errors */
export function validatePolicy(policy: Policy): FieldError[] {
  const errors: FieldError[] = [];
  policy.rules.forEach((rule, i) => {
    const p = `rules[${i}]`;
    if (!rule.level) errors.push({ type: 'FieldValueRequired', field: `${p}.level` });
    else if (!levels.includes(rule.level)) errors.push({ type: 'FieldValueNotSupported', field: `${p}.level`, value: rule.level, detail: `supported values: ${levels.map(l => JSON.stringify(l)).join(', ')}` });
    (rule.nonResourceURLs ?? []).forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errors.push({ type: 'FieldValueInvalid', field: `${p}.nonResourceURLs[${j}]`, value: url, detail: "non-resource URL rules must begin with a '/' character" });
      if (url !== '' && url.slice(0, -1).includes('*')) errors.push({ type: 'FieldValueInvalid', field: `${p}.nonResourceURLs[${j}]`, value: url, detail: "non-resource URL wildcards '*' must be the final character of the rule" });
    });
    for (const gr of rule.resources ?? []) {
      const msgs = gr.group ? dns1123Subdomain(gr.group) : [];
      if (msgs.length) errors.push({ type: 'FieldValueInvalid', field: `${p}.resources.group`, value: gr.group, detail: msgs.join(',') });
      if (gr.resourceNames?.length && !gr.resources?.length) errors.push({ type: 'FieldValueInvalid', field: `${p}.resources.resourceNames`, value: gr.resourceNames, detail: 'using resourceNames requires at least one resource' });
    }
    (rule.omitStages ?? []).forEach((s, j) => {
      if (!stages.includes(s)) errors.push({ type: 'FieldValueInvalid', field: `${p}.omitStages[${j}]`, value: s, detail: `allowed stages are ${stages.join(',')}` });
    });
    if (rule.nonResourceURLs?.length && (rule.resources?.length || rule.namespaces?.length)) {
      errors.push({ type: 'FieldValueInvalid', field: `${p}.nonResourceURLs`, value: rule.nonResourceURLs, detail: 'rules cannot apply to both regular resources and non-resource URLs' });
    }
  });
  return errors;
}

/** a policy document's text: decoded, its version checked, validated; errors worded as kube-apiserver's */
export function parsePolicy(text: string): Policy {
  let doc: unknown;
  try {
    doc = yamlLibrary().parse(text);
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error('failed decoding: Object \'Kind\' is missing in policy');
  const d = doc as { apiVersion?: unknown; kind?: unknown; rules?: unknown; omitStages?: unknown; omitManagedFields?: unknown };
  if (d.kind !== 'Policy') throw new Error(`failed decoding: no kind "${String(d.kind ?? '')}" is registered for version "${String(d.apiVersion ?? '')}"`);
  if (d.apiVersion !== 'audit.k8s.io/v1') {
    const [group, version] = String(d.apiVersion ?? '').includes('/') ? String(d.apiVersion).split('/') : ['', String(d.apiVersion ?? '')];
    throw new Error(`unknown group version field ${group}/${version}, Kind=Policy in policy`);
  }
  const policy: Policy = {
    rules: Array.isArray(d.rules) ? d.rules as PolicyRule[] : [],
    omitStages: Array.isArray(d.omitStages) ? d.omitStages as Stage[] : undefined,
    omitManagedFields: d.omitManagedFields === true,
  };
  const errors = validatePolicy(policy);
  if (errors.length) {
    const msgs = errors.map(fieldErrorMessage);
    throw new Error(msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);
  }
  if (!policy.rules.length) throw new Error('loaded illegal policy with 0 rules');
  return policy;
}

export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`failed to read file path ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    throw new Error(`${(err as Error).message}: from file ${path}`);
  }
}
