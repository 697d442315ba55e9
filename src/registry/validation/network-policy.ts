// NetworkPolicy checks as kube-apiserver's networking validation words them: label selectors
// field by field, ports (protocol, number or IANA name, endPort), peers (one kind, ipBlock alone,
// CIDRs and exceptions strictly inside them) and policyTypes.

import { isObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import { metadataLabelValueErrors, qualifiedNameErrors } from '../../api/label-rules.ts';
import { parseCidr } from '../../api/address-ranges.ts';

type Obj = Record<string, unknown>;

const notSupported = (field: string, value: unknown, allowed: string[]): FieldError =>
  ({ type: 'FieldValueNotSupported', field, value, detail: `supported values: ${allowed.map(a => JSON.stringify(a)).join(', ')}` });
const invalid = (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail });

/** metav1 ValidateLabelSelector: matchLabels keys and values, each requirement's operator, values and key */
export function labelSelectorErrors(sel: unknown, path: string): FieldError[] {
  if (!isObject(sel)) return [];
  const errs: FieldError[] = [];
  const labels = isObject(sel.matchLabels) ? sel.matchLabels : {};
  for (const [k, v] of Object.entries(labels)) {
    for (const m of qualifiedNameErrors(k)) errs.push(invalid(`${path}.matchLabels`, k, m));
    for (const m of metadataLabelValueErrors(String(v))) errs.push(invalid(`${path}.matchLabels`, v, m));
  }
  const exprs = Array.isArray(sel.matchExpressions) ? sel.matchExpressions : [];
  exprs.forEach((raw, i) => {
    const e: Obj = isObject(raw) ? raw : {};
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(e.values) ? e.values.map(String) : [];
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (!values.length) errs.push({ type: 'FieldValueRequired', field: `${at}.values`, detail: 'must be specified when `operator` is \'In\' or \'NotIn\'' });
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (values.length) errs.push({ type: 'FieldValueForbidden', field: `${at}.values`, detail: 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\'' });
    } else {
      errs.push(invalid(`${at}.operator`, e.operator ?? '', 'not a valid selector operator'));
    }
    for (const m of qualifiedNameErrors(String(e.key ?? ''))) errs.push(invalid(`${at}.key`, e.key ?? '', m));
    values.forEach((v, j) => { for (const m of metadataLabelValueErrors(v)) errs.push(invalid(`${at}.values[${j}]`, v, m)); });
  });
  return errs;
}

/** an IANA service name, as a named port must be */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

const portNumberError = (n: number) => (Number.isInteger(n) && n >= 1 && n <= 65535 ? [] : ['must be between 1 and 65535, inclusive']);

function portErrors(p: Obj, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const protocols = ['TCP', 'UDP', 'SCTP'];
  if (p.protocol !== undefined && !protocols.includes(String(p.protocol))) errs.push(notSupported(`${at}.protocol`, p.protocol, protocols));
  const end = p.endPort;
  if (typeof p.port === 'number') {
    errs.push(...portNumberError(p.port).map(m => invalid(`${at}.port`, p.port, m)));
    if (typeof end === 'number') {
      if (end < p.port) errs.push(invalid(`${at}.endPort`, end, 'must be greater than or equal to `port`'));
      errs.push(...portNumberError(end).map(m => invalid(`${at}.endPort`, end, m)));
    }
  } else if (typeof p.port === 'string') {
    if (end !== undefined) errs.push(invalid(`${at}.endPort`, end, 'may not be specified when `port` is non-numeric'));
    errs.push(...portNameErrors(p.port).map(m => invalid(`${at}.port`, p.port, m)));
  } else if (end !== undefined) {
    errs.push(invalid(`${at}.endPort`, end, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

const cidrMessage = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** CIDRs that were already stored are not checked again (as kube-apiserver keeps accepting them) */
function ipBlockErrors(b: Obj, at: string, stored: Set<string>): FieldError[] {
  if (typeof b.cidr !== 'string' || !b.cidr) return [{ type: 'FieldValueRequired', field: `${at}.cidr` }];
  const errs: FieldError[] = [];
  const cidr = parseCidr(b.cidr);
  if (!cidr) {
    if (!stored.has(b.cidr)) errs.push(invalid(`${at}.cidr`, b.cidr, cidrMessage));
    return errs;
  }
  const prefix = (text: string) => Number(text.slice(text.lastIndexOf('/') + 1));
  (Array.isArray(b.except) ? b.except : []).forEach((raw, i) => {
    const text = String(raw);
    const ex = parseCidr(text);
    if (!ex) { if (!stored.has(text)) errs.push(invalid(`${at}.except[${i}]`, text, cidrMessage)); return; }
    const inside = ex.family === cidr.family && ex.range.from >= cidr.range.from && ex.range.from <= cidr.range.to;
    if (!inside || prefix(b.cidr as string) >= prefix(text)) errs.push(invalid(`${at}.except[${i}]`, text, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function peerErrors(peer: Obj, at: string, stored: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  let kinds = 0;
  if (isObject(peer.podSelector)) { kinds++; errs.push(...labelSelectorErrors(peer.podSelector, `${at}.podSelector`)); }
  if (isObject(peer.namespaceSelector)) { kinds++; errs.push(...labelSelectorErrors(peer.namespaceSelector, `${at}.namespaceSelector`)); }
  if (isObject(peer.ipBlock)) { kinds++; errs.push(...ipBlockErrors(peer.ipBlock, `${at}.ipBlock`, stored)); }
  if (!kinds) errs.push({ type: 'FieldValueRequired', field: at, detail: 'must specify a peer' });
  else if (kinds > 1 && isObject(peer.ipBlock)) errs.push({ type: 'FieldValueForbidden', field: at, detail: 'may not specify both ipBlock and another peer' });
  return errs;
}

/** every CIDR an ipBlock of this spec names */
export function storedCidrs(spec: unknown): Set<string> {
  const out = new Set<string>();
  const s: Obj = isObject(spec) ? spec : {};
  for (const [list, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    for (const rule of Array.isArray(s[list]) ? s[list] as unknown[] : []) {
      for (const peer of isObject(rule) && Array.isArray(rule[peers]) ? rule[peers] as unknown[] : []) {
        if (!isObject(peer) || !isObject(peer.ipBlock)) continue;
        if (typeof peer.ipBlock.cidr === 'string') out.add(peer.ipBlock.cidr);
        for (const e of Array.isArray(peer.ipBlock.except) ? peer.ipBlock.except : []) out.add(String(e));
      }
    }
  }
  return out;
}

export function validateNetworkPolicySpec(spec: unknown, stored = new Set<string>()): FieldError[] {
  const s: Obj = isObject(spec) ? spec : {};
  const errs = labelSelectorErrors(s.podSelector, 'spec.podSelector');
  for (const [list, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    (Array.isArray(s[list]) ? s[list] as unknown[] : []).forEach((raw, i) => {
      const rule: Obj = isObject(raw) ? raw : {};
      const at = `spec.${list}[${i}]`;
      (Array.isArray(rule.ports) ? rule.ports : []).forEach((p, j) => { if (isObject(p)) errs.push(...portErrors(p, `${at}.ports[${j}]`)); });
      (Array.isArray(rule[peers]) ? rule[peers] as unknown[] : []).forEach((p, j) => { if (isObject(p)) errs.push(...peerErrors(p, `${at}.${peers}[${j}]`, stored)); });
    });
  }
  const types = Array.isArray(s.policyTypes) ? s.policyTypes : [];
  if (types.length > 2) return [...errs, invalid('spec.policyTypes', types, 'may not specify more than two policyTypes')];
  types.forEach((t, i) => { if (t !== 'Ingress' && t !== 'Egress') errs.push(notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress'])); });
  return errs;
}
