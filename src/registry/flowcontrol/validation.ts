// FlowSchemas and PriorityLevelConfigurations checked as kube-apiserver's flowcontrol validation
// checks them, in its words: precedence 1..10000 (1 only for `exempt`), rules with subjects and
// at least one resource or non-resource rule, `*` alone in its list, queuing that shuffle
// sharding can deal (hand ≤ queues, ≤ 60 bits of entropy), and the mandatory objects' fixed specs
// (the exempt level may tune only spec.exempt). Status conditions must have distinct types.

import type { FieldError } from '../../api/status.ts';
import { dns1123Label, dns1123Subdomain } from '../../api/names.ts';
import type {
  FlowcontrolV1FlowSchema as FlowSchema, FlowcontrolV1LimitedPriorityLevelConfiguration as Limited,
  FlowcontrolV1PriorityLevelConfiguration as PriorityLevel, FlowcontrolV1PolicyRulesWithSubjects as PolicyRules,
  FlowcontrolV1QueuingConfiguration as Queuing, FlowcontrolV1Subject as Subject,
} from '../../schema/generated/types.ts';
import { defaultFlowSchema, defaultPriorityLevel } from './defaults.ts';
import { mandatoryFlowSchemas, mandatoryPriorityLevels } from './bootstrap-objects.ts';
import { sameSpec } from './spec-equal.ts';
import { goFlowSchemaSpec, goPriorityLevelSpec } from './go-spec.ts';

const maxMatchingPrecedence = 10000;
const maxQueues = 10_000_000;
const maxHashBits = 60;
const supportedVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const quoted = (list: string[]) => `supported values: ${list.map(v => JSON.stringify(v)).join(', ')}`;
const goStrings = (list: string[]) => `[]string{${list.map(s => JSON.stringify(s)).join(', ')}}`;
const invalid = (field: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail });
const required = (field: string, detail: string): FieldError => ({ type: 'FieldValueRequired', field, detail });
const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });

/** a list that must not be empty and may hold `*` only alone */
function wildcardList(errs: FieldError[], list: string[] | undefined, field: string, emptyMessage: string, noun: string, allowEmpty = false): boolean {
  if (!list?.length) {
    if (!allowEmpty) errs.push(required(field, emptyMessage));
    return false;
  }
  if (list.includes('*')) {
    if (list.length > 1) errs.push({ type: 'FieldValueInvalid', field, goValue: goStrings(list), detail: `if '*' is present, must not specify other ${noun}` });
    return false;
  }
  return true;
}

function verbs(errs: FieldError[], list: string[] | undefined, field: string): void {
  if (wildcardList(errs, list, field, 'verbs must contain at least one value', 'verbs') && !list!.every(v => supportedVerbs.includes(v))) {
    errs.push({ type: 'FieldValueNotSupported', field, goValue: goStrings(list!), detail: quoted(supportedVerbs) });
  }
}

function nonResourcePath(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return 'must start with slash';
  if (path.includes(' ')) return 'must not contain white-space';
  if (path.includes('//')) return 'must not contain double slash';
  const stars = path.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !path.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}

function subjectErrors(s: Subject, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const members = { User: ['user', s.user], Group: ['group', s.group], ServiceAccount: ['serviceAccount', s.serviceAccount] } as const;
  const own = members[s.kind as keyof typeof members];
  if (!own) return [{ type: 'FieldValueNotSupported', field: `${p}.kind`, value: s.kind ?? '', detail: quoted(['Group', 'ServiceAccount', 'User']) }];
  const [key, member] = own;
  if (!member) errs.push(required(`${p}.${key}`, `${key} is required when subject kind is '${s.kind}'`));
  else if (s.kind === 'ServiceAccount') {
    const sa = s.serviceAccount!;
    if (!sa.name) errs.push(required(`${p}.serviceAccount.name`, ''));
    else if (sa.name !== '*') for (const m of dns1123Subdomain(sa.name)) errs.push(invalid(`${p}.serviceAccount.name`, sa.name, m));
    if (!sa.namespace) errs.push(required(`${p}.serviceAccount.namespace`, 'must specify namespace for service account'));
    else for (const m of dns1123Label(sa.namespace)) errs.push(invalid(`${p}.serviceAccount.namespace`, sa.namespace, m));
  } else if (!(member as { name?: string }).name) errs.push(required(`${p}.${key}.name`, ''));
  // the members of the other kinds, in Kubernetes' order for each kind
  const order = s.kind === 'ServiceAccount' ? ['User', 'Group'] : s.kind === 'User' ? ['ServiceAccount', 'Group'] : ['ServiceAccount', 'User'];
  for (const other of order) {
    const [otherKey, otherMember] = members[other as keyof typeof members];
    if (otherMember) errs.push(forbidden(`${p}.${otherKey}`, `${otherKey} is forbidden when subject kind is not '${other}'`));
  }
  return errs;
}

function policyRuleErrors(rule: PolicyRules, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (rule.subjects?.length) rule.subjects.forEach((s, i) => errs.push(...subjectErrors(s, `${p}.subjects[${i}]`)));
  else errs.push(required(`${p}.subjects`, 'subjects must contain at least one value'));
  if (!rule.resourceRules?.length && !rule.nonResourceRules?.length) errs.push(required(p, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  (rule.resourceRules ?? []).forEach((r, i) => {
    const rp = `${p}.resourceRules[${i}]`;
    verbs(errs, r.verbs, `${rp}.verbs`);
    wildcardList(errs, r.apiGroups, `${rp}.apiGroups`, 'resource rules must supply at least one api group', 'api groups');
    wildcardList(errs, r.resources, `${rp}.resources`, 'resource rules must supply at least one resource', 'resources');
    if (!r.namespaces?.length && !r.clusterScope) errs.push(required(`${rp}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
    else if (wildcardList(errs, r.namespaces, `${rp}.namespaces`, '', 'namespaces', true)) {
      r.namespaces!.forEach((ns, j) => { for (const m of dns1123Label(ns)) errs.push(invalid(`${rp}.namespaces[${j}]`, ns, `each member of this list must be '*' or a DNS-1123 label; ${m}`)); });
    }
  });
  (rule.nonResourceRules ?? []).forEach((r, i) => {
    const rp = `${p}.nonResourceRules[${i}]`;
    verbs(errs, r.verbs, `${rp}.verbs`);
    if (wildcardList(errs, r.nonResourceURLs, `${rp}.nonResourceURLs`, 'nonResourceURLs must contain at least one value', 'non-resource URLs')) {
      r.nonResourceURLs.forEach((u, j) => { const m = nonResourcePath(u); if (m) errs.push(invalid(`${rp}.nonResourceURLs[${j}]`, u, m)); });
    }
  });
  return errs;
}

/** what a write through the status subresource is checked for */
export function conditionErrors(conditions: Array<{ type?: string }> | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    if (seen.has(type)) errs.push({ type: 'FieldValueDuplicate', field: `status.conditions[${i}].type`, value: type });
    seen.add(type);
    if (!type) errs.push(required(`status.conditions[${i}].type`, 'must not be empty'));
  });
  return errs;
}

export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const errs: FieldError[] = [];
  const spec = fs.spec ?? { priorityLevelConfiguration: { name: '' } };
  const name = fs.metadata?.name ?? '';
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) errs.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > maxMatchingPrecedence) errs.push(invalid('spec.matchingPrecedence', precedence, `must not be greater than ${maxMatchingPrecedence}`));
  if (precedence === 1 && name !== 'exempt') errs.push(invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = spec.distinguisherMethod;
  if (method && method.type !== 'ByNamespace' && method.type !== 'ByUser') {
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.distinguisherMethod.type', goValue: `flowcontrol.FlowDistinguisherMethod{Type:${JSON.stringify(method.type ?? '')}}`, detail: quoted(['ByNamespace', 'ByUser']) });
  }
  const level = spec.priorityLevelConfiguration?.name ?? '';
  if (level) for (const m of dns1123Subdomain(level)) errs.push(invalid('spec.priorityLevelConfiguration.name', level, m));
  else errs.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  (spec.rules ?? []).forEach((r, i) => errs.push(...policyRuleErrors(r, `spec.rules[${i}]`)));
  const mandatory = mandatoryFlowSchemas.find(m => m.name === name);
  if (mandatory) {
    const want = { spec: structuredClone(mandatory.spec) };
    defaultFlowSchema(want);
    if (!sameSpec(spec, want.spec)) errs.push({ type: 'FieldValueInvalid', field: 'spec', goValue: goFlowSchemaSpec(spec), detail: `spec of '${name}' must equal the fixed value` });
  }
  return [...errs, ...conditionErrors(fs.status?.conditions)];
}

function queuingErrors(q: Queuing, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const [length, queues, hand] = [q.queueLengthLimit ?? 0, q.queues ?? 0, q.handSize ?? 0];
  if (length <= 0) errs.push(invalid(`${p}.queueLengthLimit`, length, 'must be positive'));
  if (queues <= 0) errs.push(invalid(`${p}.queues`, queues, 'must be positive'));
  else if (queues > maxQueues) errs.push(invalid(`${p}.queues`, queues, `must not be greater than ${maxQueues}`));
  if (hand <= 0) errs.push(invalid(`${p}.handSize`, hand, 'must be positive'));
  else if (hand > queues) errs.push(invalid(`${p}.handSize`, hand, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * hand) > maxHashBits) {
    errs.push(invalid(`${p}.handSize`, hand, `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${maxHashBits}`));
  }
  return errs;
}

function limitedErrors(l: Limited, p: string): FieldError[] {
  const errs: FieldError[] = [];
  // v1 allows 0 shares: a level that runs only on borrowed seats
  const shares = l.nominalConcurrencyShares ?? 0;
  if (shares < 0) errs.push(invalid(`${p}.nominalConcurrencyShares`, shares, 'must be a non-negative integer'));
  const r = l.limitResponse;
  if (r?.type === 'Reject') {
    if (r.queuing) errs.push(forbidden(`${p}.limitResponse.queuing`, 'must be nil if limited.limitResponse.type is not Limited'));
  } else if (r?.type === 'Queue') {
    if (!r.queuing) errs.push(required(`${p}.limitResponse.queuing`, 'must not be empty if limited.limitResponse.type is Limited'));
    else errs.push(...queuingErrors(r.queuing, `${p}.limitResponse.queuing`));
  } else {
    errs.push({ type: 'FieldValueNotSupported', field: `${p}.limitResponse.type`, value: r?.type ?? '', detail: quoted(['Queue', 'Reject']) });
  }
  if (l.lendablePercent !== undefined && !(l.lendablePercent >= 0 && l.lendablePercent <= 100)) errs.push(invalid(`${p}.lendablePercent`, l.lendablePercent, 'must be between 0 and 100, inclusive'));
  if (l.borrowingLimitPercent !== undefined && l.borrowingLimitPercent < 0) errs.push(invalid(`${p}.borrowingLimitPercent`, l.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  return errs;
}

export function validatePriorityLevel(pl: PriorityLevel): FieldError[] {
  const errs: FieldError[] = [];
  const name = pl.metadata?.name ?? '';
  const spec = pl.spec ?? { type: '' };
  if ((name === 'exempt') !== (spec.type === 'Exempt')) errs.push(invalid('spec.type', spec.type, "type must be 'Exempt' if and only if name is 'exempt'"));
  if (spec.type === 'Exempt') {
    if (spec.limited) errs.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
    const e = spec.exempt;
    if (e?.nominalConcurrencyShares !== undefined && e.nominalConcurrencyShares < 0) errs.push(invalid('spec.exempt.nominalConcurrencyShares', e.nominalConcurrencyShares, 'must be a non-negative integer'));
    if (e?.lendablePercent !== undefined && !(e.lendablePercent >= 0 && e.lendablePercent <= 100)) errs.push(invalid('spec.exempt.lendablePercent', e.lendablePercent, 'must be between 0 and 100, inclusive'));
  } else if (spec.type === 'Limited') {
    if (spec.exempt) errs.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
    if (!spec.limited) errs.push(required('spec.limited', 'must not be empty when type is Limited'));
    else errs.push(...limitedErrors(spec.limited, 'spec.limited'));
  } else {
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.type', value: spec.type ?? '', detail: quoted(['Exempt', 'Limited']) });
  }
  const mandatory = mandatoryPriorityLevels.find(m => m.name === name);
  if (mandatory) {
    const want = { spec: structuredClone(mandatory.spec) };
    defaultPriorityLevel(want);
    // the exempt level's spec.exempt is the operator's to tune
    const compared = name === 'exempt' ? { ...spec, exempt: want.spec.exempt } : spec;
    if (!sameSpec(compared, want.spec)) {
      errs.push({ type: 'FieldValueInvalid', field: 'spec', goValue: goPriorityLevelSpec(spec), detail: name === 'exempt' ? "spec of 'exempt' except the 'spec.exempt' field must equal the fixed value" : `spec of '${name}' must equal the fixed value` });
    }
  }
  return [...errs, ...conditionErrors(pl.status?.conditions)];
}
