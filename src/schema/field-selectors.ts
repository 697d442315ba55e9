// Which field selector labels each built-in resource accepts, how each reads from an object, and
// the error Kubernetes 1.36 gives for any other label. The wording differs by resource (it comes
// from each type's own label conversion), and the server sends only that wording: kubectl adds
// the `Unable to find "..." that match label selector ...` prefix itself.

import { badRequest } from '../api/status.ts';
import type { KubeObject } from '../api/object.ts';
import type { FieldSelector } from '../api/selectors/field.ts';
import { renameFields } from '../api/selectors/field.ts';
import { goQuote } from '../api/selectors/go-quote.ts';

type Reader = (obj: KubeObject) => string;

interface Rule {
  /** every accepted label (aliases included) and how to read it */
  fields: Record<string, Reader>;
  /** accepted labels that Kubernetes rewrites to another name before matching */
  aliases?: Record<string, string>;
  unsupported: (label: string, version: string) => string;
}

function at(obj: unknown, ...path: string[]): unknown {
  let v = obj;
  for (const p of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

const str = (...path: string[]): Reader => obj => {
  const v = at(obj, ...path);
  return typeof v === 'string' ? v : '';
};
const int = (...path: string[]): Reader => obj => {
  const v = at(obj, ...path);
  return String(typeof v === 'number' ? Math.trunc(v) : 0);
};
const bool = (...path: string[]): Reader => obj => String(at(obj, ...path) === true);

const name: Reader = str('metadata', 'name');
const namespace: Reader = str('metadata', 'namespace');

const plain = (label: string) => `field label not supported: ${label}`;
const notKnown = (label: string) => `${goQuote(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`;

/** what every resource without its own conversion accepts (cluster-scoped ones included) */
const defaultRule: Rule = { fields: { 'metadata.name': name, 'metadata.namespace': namespace }, unsupported: notKnown };

// The pod's first IP: v1 podIP wins over podIPs[0] when both are set, as the internal form does.
const podIP: Reader = obj => str('status', 'podIP')(obj) || str('status', 'podIPs', '0', 'ip')(obj);
const serviceAccount: Reader = obj => str('spec', 'serviceAccountName')(obj) || str('spec', 'serviceAccount')(obj);

// Events: core/v1 and events.k8s.io/v1 objects are two shapes of one type; read either shape.
const eventRef = (f: string): Reader => obj => str(at(obj, 'regarding') ? 'regarding' : 'involvedObject', f)(obj);
const reporting: Reader = obj => str('reportingController')(obj) || str('reportingComponent')(obj);
const eventSource: Reader = obj => str('source', 'component')(obj) || str('deprecatedSource', 'component')(obj) || reporting(obj);
const refFields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
const eventCommon: Record<string, Reader> = {
  'metadata.name': name, 'metadata.namespace': namespace,
  reason: str('reason'), source: eventSource, type: str('type'),
};

const signerOnly: Rule = { fields: { 'metadata.name': name, 'spec.signerName': str('spec', 'signerName') }, unsupported: plain };

const resourceSlice: Rule = {
  fields: { 'metadata.name': name, 'spec.nodeName': str('spec', 'nodeName'), 'spec.driver': str('spec', 'driver') },
  unsupported: (label, version) => `field label not supported for resource.k8s.io/${version}, Kind=ResourceSlice: ${label}`,
};

/** keyed "group/resource" ("" group for core) */
const rules: Record<string, Rule> = {
  '/pods': {
    fields: {
      'metadata.name': name, 'metadata.namespace': namespace,
      'spec.nodeName': str('spec', 'nodeName'), 'spec.host': str('spec', 'nodeName'),
      'spec.restartPolicy': str('spec', 'restartPolicy'), 'spec.schedulerName': str('spec', 'schedulerName'),
      'spec.serviceAccountName': serviceAccount, 'spec.hostNetwork': bool('spec', 'hostNetwork'),
      'status.phase': str('status', 'phase'), 'status.podIP': podIP,
      // accepted, but Kubernetes puts no such entry in a pod's field set, so it always reads as ""
      'status.podIPs': () => '',
      'status.nominatedNodeName': str('status', 'nominatedNodeName'),
    },
    aliases: { 'spec.host': 'spec.nodeName' },
    unsupported: plain,
  },
  '/nodes': { fields: { 'metadata.name': name, 'spec.unschedulable': bool('spec', 'unschedulable') }, unsupported: plain },
  '/namespaces': { fields: { 'metadata.name': name, 'status.phase': str('status', 'phase') }, unsupported: plain },
  '/replicationcontrollers': {
    fields: { 'metadata.name': name, 'metadata.namespace': namespace, 'status.replicas': int('status', 'replicas') },
    unsupported: plain,
  },
  '/secrets': { fields: { 'metadata.name': name, 'metadata.namespace': namespace, type: str('type') }, unsupported: plain },
  '/services': {
    fields: {
      'metadata.name': name, 'metadata.namespace': namespace,
      'spec.clusterIP': str('spec', 'clusterIP'), 'spec.type': str('spec', 'type'),
    },
    unsupported: plain,
  },
  '/events': {
    fields: {
      ...eventCommon,
      ...Object.fromEntries(refFields.map(f => [`involvedObject.${f}`, eventRef(f)])),
      reportingComponent: reporting,
    },
    unsupported: plain,
  },
  'events.k8s.io/events': {
    fields: {
      ...eventCommon,
      ...Object.fromEntries(refFields.map(f => [`regarding.${f}`, eventRef(f)])),
      reportingController: reporting,
    },
    aliases: {
      ...Object.fromEntries(refFields.map(f => [`regarding.${f}`, `involvedObject.${f}`])),
      reportingController: 'reportingComponent',
    },
    unsupported: plain,
  },
  'batch/jobs': {
    fields: { 'metadata.name': name, 'metadata.namespace': namespace, 'status.successful': int('status', 'succeeded') },
    unsupported: label => `field label ${goQuote(label)} not supported for Job`,
  },
  'certificates.k8s.io/certificatesigningrequests': signerOnly,
  'certificates.k8s.io/clustertrustbundles': signerOnly,
  'certificates.k8s.io/podcertificaterequests': {
    fields: {
      'metadata.name': name, 'spec.signerName': str('spec', 'signerName'),
      'spec.podName': str('spec', 'podName'), 'spec.nodeName': str('spec', 'nodeName'),
    },
    unsupported: plain,
  },
  'resource.k8s.io/resourceslices': resourceSlice,
};

function ruleFor(group: string, resource: string): Rule {
  return rules[`${group}/${resource}`] ?? defaultRule;
}

/** the field selector labels a resource accepts, sorted */
export function supportedFieldLabels(group: string, resource: string): string[] {
  return Object.keys(ruleFor(group, resource).fields).sort();
}

/** the message Kubernetes gives when `label` is not a field selector of this resource */
export function unsupportedFieldLabelMessage(group: string, resource: string, version: string, label: string): string {
  return ruleFor(group, resource).unsupported(label, version);
}

/**
 * Checks every label (in the selector's evaluation order; the first bad one is reported) and
 * returns the selector with aliases rewritten to the names Kubernetes matches on. Throws a
 * 400 BadRequest carrying only the server-side message.
 */
export function convertFieldSelector(group: string, resource: string, version: string, sel: FieldSelector): FieldSelector {
  const rule = ruleFor(group, resource);
  for (const r of sel.requirements) {
    if (!Object.prototype.hasOwnProperty.call(rule.fields, r.field)) throw badRequest(rule.unsupported(r.field, version));
  }
  const aliases = rule.aliases;
  return aliases ? renameFields(sel, f => aliases[f] ?? f) : sel;
}

export function validateFieldSelector(group: string, resource: string, sel: FieldSelector, version = 'v1'): FieldSelector {
  return convertFieldSelector(group, resource, version, sel);
}

/**
 * A predicate for list and watch filtering that reads only the fields the selector names
 * (cheaper per object than fieldsOf). Call after the selector has been validated.
 */
export function fieldFilter(group: string, resource: string, sel: FieldSelector): (obj: KubeObject) => boolean {
  const fields = ruleFor(group, resource).fields;
  const none: Reader = () => '';
  const checks = sel.requirements.map(r => ({ read: Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field]! : none, r }));
  return obj => checks.every(({ read, r }) => (read(obj) === r.value) === (r.operator === '='));
}

/**
 * The object's selectable fields. Both a label and its alias are present, so a selector matches
 * whether or not it went through convertFieldSelector.
 */
export function fieldsOf(group: string, resource: string, obj: KubeObject): Record<string, string> {
  const rule = ruleFor(group, resource);
  const out: Record<string, string> = {};
  for (const [label, read] of Object.entries(rule.fields)) out[label] = read(obj);
  for (const [alias, canonical] of Object.entries(rule.aliases ?? {})) {
    if (!(canonical in out)) out[canonical] = out[alias]!;
  }
  return out;
}
