// The CEL types Kubernetes' libraries add (Quantity, URL, the authorizer's checks and decision).
// @bufbuild/cel dispatches on runtime types it knows: scalars, lists, maps and protobuf
// messages. So each Kubernetes type is a small message declared here at run time, which gives
// it a type name CEL prints (`type(quantity('1'))`) and lets overloads tell them apart.

import { create, createFileRegistry, type DescMessage, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { objectType, type CelObjectType } from '@bufbuild/cel';

const STRING = 9, BOOL = 8, INT64 = 3; // FieldDescriptorProto types
const MESSAGE = 11;
type FieldSpec = [name: string, type: number, typeName?: string];

const messages: Record<string, FieldSpec[]> = {
  // the exact value as numerator / 10^scale, normalized, so message equality is value equality
  'Quantity': [['num', STRING], ['scale', INT64]],
  'URL': [['raw', STRING]],
  // cel-go's optional_type; the value it holds is kept beside the message (optionals.ts)
  'Optional': [['present', BOOL]],
  // `handle` names the callback of one evaluation (see authorizer.ts); `sa` a service account it acts as
  'authorization.Authorizer': [['handle', STRING], ['sa', STRING], ['requestResource', MESSAGE, '.kubernetes.authorization.ResourceCheck']],
  'authorization.PathCheck': [['handle', STRING], ['sa', STRING], ['path', STRING]],
  'authorization.GroupCheck': [['handle', STRING], ['sa', STRING], ['group', STRING]],
  'authorization.ResourceCheck': [['handle', STRING], ['sa', STRING], ['group', STRING], ['resource', STRING], ['subresource', STRING], ['namespace', STRING], ['name', STRING]],
  'authorization.Decision': [['allowed', BOOL], ['denied', BOOL], ['reason', STRING], ['error', STRING]],
};

export const celTypeRegistry: Registry = createFileRegistry(create(FileDescriptorProtoSchema, {
  name: 'orch/kubernetes-cel.proto',
  package: 'kubernetes',
  syntax: 'proto3',
  messageType: Object.entries(messages).map(([name, fields]) => ({
    // nested names (authorization.X) become a nested message inside "authorization"
    name,
    field: fields.map(([f, type], i) => ({ name: f, number: i + 1, type, label: 1, jsonName: f })),
  })).filter(m => !m.name.includes('.')).concat([{
    name: 'authorization',
    field: [],
    nestedType: Object.entries(messages).filter(([n]) => n.includes('.')).map(([name, fields]) => ({
      name: name.split('.')[1],
      field: fields.map(([f, type, typeName], i) => ({ name: f, number: i + 1, type, typeName, label: 1, jsonName: f })),
    })),
  } as never]),
}), () => undefined);

function desc(name: string): DescMessage {
  const d = celTypeRegistry.getMessage(`kubernetes.${name}`);
  if (!d) throw new Error(`CEL type kubernetes.${name} not declared`);
  return d;
}

export const descs = {
  quantity: desc('Quantity'),
  url: desc('URL'),
  optional: desc('Optional'),
  authorizer: desc('authorization.Authorizer'),
  pathCheck: desc('authorization.PathCheck'),
  groupCheck: desc('authorization.GroupCheck'),
  resourceCheck: desc('authorization.ResourceCheck'),
  decision: desc('authorization.Decision'),
};

export const QUANTITY: CelObjectType = objectType(descs.quantity);
export const URL_TYPE: CelObjectType = objectType(descs.url);
export const OPTIONAL: CelObjectType = objectType(descs.optional);
export const AUTHORIZER: CelObjectType = objectType(descs.authorizer);
export const PATH_CHECK: CelObjectType = objectType(descs.pathCheck);
export const GROUP_CHECK: CelObjectType = objectType(descs.groupCheck);
export const RESOURCE_CHECK: CelObjectType = objectType(descs.resourceCheck);
export const DECISION: CelObjectType = objectType(descs.decision);

/** the fields of a message value a method receives (a ReflectMessage) */
export function fieldsOf<T>(v: unknown): T {
  return (v as { message: T }).message;
}

/** a message of type `d` from the fields of `init` that `d` declares (others, $typeName, dropped) */
export function make(d: DescMessage, init: Record<string, unknown>): never {
  const own: Record<string, unknown> = {};
  for (const f of d.fields) if (init[f.localName] !== undefined) own[f.localName] = init[f.localName];
  return create(d, own as never) as never;
}
