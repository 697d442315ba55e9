// Request bodies that carry objects (create, update, delete options): decoded per Content-Type,
// then checked against the type's schema as the fieldValidation level asks. Type mismatches
// are 400s at every level; unknown and repeated fields fail (Strict), warn (Warn) or vanish (Ignore).

import { badRequest, StatusError, unsupportedMediaType } from '../api/status.ts';
import { nestedTooDeeply, nestsTooDeeply } from '../codec/nesting.ts';
import { isObject, type KubeObject } from '../api/object.ts';
import { decodeBody } from '../codec/decode.ts';
import { acceptedBodyTypes, objectBodyKinds, parseContentType } from '../codec/media-type.ts';
import { decodeProtobufObject, ProtobufError } from '../codec/protobuf/envelope.ts';
import { CborError, decodeCbor } from '../codec/cbor.ts';
import { checkDecodedObject, type FieldValidation } from '../schema/decode-checks/field-validation.ts';
import { decodeErrorMessage, duplicateFieldWarning, strictDecodingMessage, unknownFieldWarning } from '../schema/decode-checks/decode-messages.ts';
import { pruneCustomResource, type JSONSchemaProps } from '../schema/structural/index.ts';
import type { RequestContext } from './context.ts';

function decodeProtobufBody(raw: Buffer): Record<string, unknown> {
  try {
    const { object } = decodeProtobufObject(raw);
    if (nestsTooDeeply(object)) throw nestedTooDeeply();
    return object;
  } catch (err) {
    if (err instanceof StatusError) throw err;
    if (err instanceof ProtobufError) throw badRequest(err.message);
    // a message nested past what the decoder's recursion can follow
    if (err instanceof RangeError) throw nestedTooDeeply();
    throw err;
  }
}

/** a CBOR body (the CBORServingAndStorage gate on) as the value its JSON form holds */
export function decodeCborBody(raw: Buffer): unknown {
  try {
    const object = decodeCbor(raw);
    if (nestsTooDeeply(object)) throw nestedTooDeeply();
    return object;
  } catch (err) {
    if (err instanceof CborError) throw badRequest(err.message);
    if (err instanceof RangeError) throw nestedTooDeeply();
    throw err;
  }
}

/** whether CBOR bodies are read (the CBORServingAndStorage gate) */
export function cborBodies(ctx: RequestContext): { cbor: boolean } {
  return { cbor: ctx.features?.enabled('CBORServingAndStorage') ?? false };
}

interface DecodedObject { object: KubeObject; duplicates: string[] }

// a custom resource has no protobuf form: such a body is refused like any unknown type (its
// Scale, a built-in kind, keeps it)
const customResourceBodyKinds = objectBodyKinds.filter(k => k !== 'protobuf');
const objectMetaDefinition = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

async function decodeObjectBody(ctx: RequestContext): Promise<DecodedObject> {
  const raw = await ctx.body();
  const custom = !!ctx.resource?.custom && ctx.info.subresource !== 'scale';
  const kind = parseContentType(String(ctx.headers['content-type'] ?? 'application/json'), custom ? customResourceBodyKinds : undefined, cborBodies(ctx));
  if (kind === 'protobuf') return { object: decodeProtobufBody(raw) as KubeObject, duplicates: [] };
  if (kind === 'cbor') {
    const object = decodeCborBody(raw);
    if (!isObject(object)) throw badRequest('the body of the request must be an object');
    return { object: object as KubeObject, duplicates: [] };
  }
  if (kind !== 'json' && kind !== 'yaml') throw unsupportedMediaType(acceptedBodyTypes);
  const { object, duplicates } = decodeBody(raw, kind);
  if (!isObject(object)) throw badRequest('the body of the request must be an object');
  return { object: object as KubeObject, duplicates };
}

export interface SchemaCheck {
  /** OpenAPI definition of the body's type */
  definition: string;
  /** kind and version named in decode errors */
  kind: string;
  version: string;
  fieldValidation: FieldValidation;
}

/**
 * The body as an object of `check.definition`'s type. `beforeSchema` runs first on the raw
 * object (apiVersion/kind checks), since a body for another type fails that way before its fields do.
 */
export async function readObject(ctx: RequestContext, check: SchemaCheck, beforeSchema?: (obj: KubeObject) => void): Promise<KubeObject> {
  const { object, duplicates } = await decodeObjectBody(ctx);
  ctx.audit?.requestObject(object);
  beforeSchema?.(object);
  const warnings = checkDecodedObject(object, check.definition, {
    kind: check.kind, version: check.version, fieldValidation: check.fieldValidation, duplicateFields: duplicates, wrap: true,
  });
  ctx.warnings.push(...warnings);
  const custom = ctx.resource?.custom;
  if (custom && check.definition === ctx.resource!.definition) {
    checkCustomResourceMetadata(object, check);
    ctx.warnings.push(...checkCustomResourceFields(object, custom.schema, check, duplicates));
  }
  return object;
}

/**
 * A custom resource's metadata must decode as ObjectMeta: apiextensions-apiserver unmarshals it
 * on its own, so a mistyped field is a 400 naming `ObjectMeta.name` (not `metadata.name`), before
 * any unknown field is reported. (A name that was a number used to reach validation as one: a 500.)
 */
function checkCustomResourceMetadata(object: KubeObject, check: SchemaCheck): void {
  if (object.metadata === undefined || object.metadata === null) return;
  checkDecodedObject(structuredClone(object.metadata), objectMetaDefinition, { kind: check.kind, version: check.version, fieldValidation: 'Ignore', wrap: true });
}

/**
 * A custom resource's unknown fields are those its structural schema prunes: Strict refuses them
 * in kube-apiserver's words, Warn names them in Warning headers (pruning drops them later), Ignore
 * says nothing.
 */
function checkCustomResourceFields(object: KubeObject, schema: unknown, check: SchemaCheck, duplicates: string[]): string[] {
  if (check.fieldValidation === 'Ignore') return [];
  const unknown = pruneCustomResource(schema as JSONSchemaProps | undefined, object).unknownFields;
  const problems = [...duplicates.map(duplicateFieldWarning), ...unknown.map(unknownFieldWarning)];
  if (check.fieldValidation === 'Strict' && problems.length) throw badRequest(decodeErrorMessage(check.kind, check.version, strictDecodingMessage(problems)));
  return problems;
}

/** an optional body (DELETE): undefined when empty */
export async function decodeOptionalBody(ctx: RequestContext): Promise<unknown> {
  const raw = await ctx.body();
  if (raw.length === 0) return undefined;
  const ct = String(ctx.headers['content-type'] ?? 'application/json');
  const kind = parseContentType(ct, undefined, cborBodies(ctx));
  if (kind === 'protobuf') return decodeProtobufBody(raw);
  if (kind === 'cbor') return decodeCborBody(raw);
  return decodeBody(raw, kind === 'yaml' ? 'yaml' : 'json').object;
}
