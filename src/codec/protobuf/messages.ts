// The protobuf message table, compiled on first use into per-message field lookups, and the
// mapping from a group/version/kind to the message that carries it.

import { createRequire } from 'node:module';

type FieldRow = [string, number, string, number, string?];
const table = createRequire(import.meta.url)('../../schema/generated/proto-messages.json') as Record<string, FieldRow[]>;

/** how a value is read and written; messages whose JSON form is not an object get their own kind */
export const K = {
  string: 1, bytes: 2, bool: 3, int: 4, uint: 5, double: 6, float: 7, message: 8, map: 9,
} as const;

/** messages whose JSON form is a scalar or an array rather than an object */
export const S = {
  none: 0, time: 1, microTime: 2, duration: 3, quantity: 4, intOrString: 5, rawExtension: 6, fieldsV1: 7, items: 8,
} as const;

export interface FieldInfo {
  name: string;
  number: number;
  kind: number;
  /** the message type name (for message fields) or the map value's type */
  type: string;
  repeated: boolean;
  /** an embedded struct: its fields are the parent's JSON fields */
  inline: boolean;
  /** a zero number or false read for this field means the client left it unset */
  omitZero: boolean;
  /** map value kind (for maps) */
  valueKind: number;
  /** resolved on first use, so compiling one message does not compile the whole graph */
  msg: MessageInfo | undefined;
}

export interface MessageInfo {
  name: string;
  /** fields in number order, the order Go writes them */
  fields: FieldInfo[];
  /** fields by number (the numbers are small) */
  byNumber: Array<FieldInfo | undefined>;
  special: number;
}

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1.';
const specials: Record<string, number> = {
  [`${meta}Time`]: S.time,
  [`${meta}MicroTime`]: S.microTime,
  [`${meta}Duration`]: S.duration,
  [`${meta}FieldsV1`]: S.fieldsV1,
  'k8s.io.apimachinery.pkg.api.resource.Quantity': S.quantity,
  'k8s.io.apimachinery.pkg.api.resource.QuantityValue': S.quantity,
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': S.intOrString,
  'k8s.io.apimachinery.pkg.runtime.RawExtension': S.rawExtension,
};

function kindOf(type: string): number {
  switch (type) {
    case 'string': return K.string;
    case 'bytes': return K.bytes;
    case 'bool': return K.bool;
    case 'int32': case 'int64': case 'sint32': case 'sint64': case 'sfixed32': case 'sfixed64': return K.int;
    case 'uint32': case 'uint64': case 'fixed32': case 'fixed64': return K.uint;
    case 'double': return K.double;
    case 'float': return K.float;
    case 'map': return K.map;
    default: return K.message;
  }
}

const compiled = new Map<string, MessageInfo>();

export function hasMessage(name: string): boolean {
  return Object.hasOwn(table, name);
}

export function messageInfo(name: string): MessageInfo {
  let info = compiled.get(name);
  if (info) return info;
  const rows = table[name];
  if (!rows) throw new Error(`no protobuf message ${name}`);
  const fields = rows.map(([fieldName, number, type, flags, value]): FieldInfo => ({
    name: fieldName, number, kind: kindOf(type), type: type === 'map' ? value! : type,
    repeated: (flags & 1) !== 0, inline: (flags & 4) !== 0, omitZero: (flags & 8) !== 0, valueKind: type === 'map' ? kindOf(value!) : 0, msg: undefined,
  }));
  const byNumber: Array<FieldInfo | undefined> = [];
  for (const f of fields) byNumber[f.number] = f;
  let special = specials[name] ?? S.none;
  // Verbs and the ExtraValue types are string lists in JSON
  if (special === S.none && /\.(Verbs|ExtraValue)$/.test(name) && fields.length === 1 && fields[0]!.name === 'items') special = S.items;
  info = { name, fields, byNumber, special };
  compiled.set(name, info);
  return info;
}

/** the message of a message-typed field or map value */
export function fieldMessage(f: FieldInfo): MessageInfo {
  return (f.msg ??= messageInfo(f.type));
}

// groups whose package is not their first DNS label
const groupPackages: Record<string, string> = {
  '': 'k8s.io.api.core',
  'internal.apiserver.k8s.io': 'k8s.io.api.apiserverinternal',
  'meta.k8s.io': 'k8s.io.apimachinery.pkg.apis.meta',
  'apiextensions.k8s.io': 'k8s.io.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'k8s.io.kube-aggregator.pkg.apis.apiregistration',
};

/** the protobuf message (full name) of a kind in a group version; undefined when there is none */
export function kindToMessage(group: string, version: string, kind: string): string | undefined {
  const pkg = groupPackages[group] ?? `k8s.io.api.${group.split('.')[0]}`;
  const own = `${pkg}.${version}.${kind}`;
  if (hasMessage(own)) return own;
  // Status, DeleteOptions, Table, PartialObjectMetadata, WatchEvent... are served in every group
  for (const candidate of [`${meta.slice(0, -3)}${version}.${kind}`, `${meta}${kind}`]) {
    if (hasMessage(candidate)) return candidate;
  }
  return undefined;
}

/** the same, from an apiVersion string ("v1", "apps/v1") */
export function apiVersionToMessage(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? kindToMessage('', apiVersion, kind) : kindToMessage(apiVersion.slice(0, slash), apiVersion.slice(slash + 1), kind);
}
