// A FlowSchema's or PriorityLevelConfiguration's spec as Go's %#v prints kube-apiserver's internal
// type, the value its "must equal the fixed value" errors show; pointers to set structs by a
// stand-in address, as Go's own is arbitrary (see goRule for CRD validation rules).

import type { FlowcontrolV1FlowSchemaSpec, FlowcontrolV1PriorityLevelConfigurationSpec } from '../../schema/generated/types.ts';

type Shape = Array<[goName: string, jsonName: string, kind: Field]>;
type Field = 'string' | 'int' | 'bool' | 'strings' | { struct: string; shape: Shape } | { pointer: string; shape?: Shape } | { slice: string; shape: Shape };

const pointer = (t: string): Field => ({ pointer: t });

const subject: Shape = [['Kind', 'kind', 'string'], ['User', 'user', pointer('UserSubject')], ['Group', 'group', pointer('GroupSubject')], ['ServiceAccount', 'serviceAccount', pointer('ServiceAccountSubject')]];
const resourceRule: Shape = [['Verbs', 'verbs', 'strings'], ['APIGroups', 'apiGroups', 'strings'], ['Resources', 'resources', 'strings'], ['ClusterScope', 'clusterScope', 'bool'], ['Namespaces', 'namespaces', 'strings']];
const nonResourceRule: Shape = [['Verbs', 'verbs', 'strings'], ['NonResourceURLs', 'nonResourceURLs', 'strings']];
const policyRules: Shape = [
  ['Subjects', 'subjects', { slice: 'Subject', shape: subject }],
  ['ResourceRules', 'resourceRules', { slice: 'ResourcePolicyRule', shape: resourceRule }],
  ['NonResourceRules', 'nonResourceRules', { slice: 'NonResourcePolicyRule', shape: nonResourceRule }],
];
const flowSchemaSpec: Shape = [
  ['PriorityLevelConfiguration', 'priorityLevelConfiguration', { struct: 'PriorityLevelConfigurationReference', shape: [['Name', 'name', 'string']] }],
  ['MatchingPrecedence', 'matchingPrecedence', 'int'],
  ['DistinguisherMethod', 'distinguisherMethod', pointer('FlowDistinguisherMethod')],
  ['Rules', 'rules', { slice: 'PolicyRulesWithSubjects', shape: policyRules }],
];
const priorityLevelSpec: Shape = [
  ['Type', 'type', 'string'],
  ['Limited', 'limited', pointer('LimitedPriorityLevelConfiguration')],
  ['Exempt', 'exempt', pointer('ExemptPriorityLevelConfiguration')],
];

function render(kind: Field, v: unknown): string {
  if (kind === 'string') return JSON.stringify(typeof v === 'string' ? v : '');
  if (kind === 'int') return String(typeof v === 'number' ? v : 0);
  if (kind === 'bool') return String(v === true);
  if (kind === 'strings') return Array.isArray(v) ? `[]string{${v.map(s => JSON.stringify(String(s))).join(', ')}}` : '[]string(nil)';
  if ('pointer' in kind) return `(*flowcontrol.${kind.pointer})(${v && typeof v === 'object' ? '0xc000000000' : 'nil'})`;
  if ('slice' in kind) {
    if (!Array.isArray(v)) return `[]flowcontrol.${kind.slice}(nil)`;
    return `[]flowcontrol.${kind.slice}{${v.map(item => struct(kind.slice, kind.shape, item)).join(', ')}}`;
  }
  return struct(kind.struct, kind.shape, v);
}

function struct(type: string, shape: Shape, v: unknown): string {
  const obj = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  return `flowcontrol.${type}{${shape.map(([go, json, kind]) => `${go}:${render(kind, obj[json])}`).join(', ')}}`;
}

export function goFlowSchemaSpec(spec: FlowcontrolV1FlowSchemaSpec | undefined): string {
  return struct('FlowSchemaSpec', flowSchemaSpec, spec);
}

export function goPriorityLevelSpec(spec: FlowcontrolV1PriorityLevelConfigurationSpec | undefined): string {
  return struct('PriorityLevelConfigurationSpec', priorityLevelSpec, spec);
}
