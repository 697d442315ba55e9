// The decode-time checks of a write, in Kubernetes' order: a type mismatch is fatal at every
// fieldValidation level (400, and it hides any unknown fields); then unknown and duplicate fields
// fail the request (Strict), become Warning headers and are dropped (Warn, the default), or are
// dropped silently (Ignore).

import { badRequest } from '../../api/status.ts';
import { schemaNode } from '../schema-walker.ts';
import { decodeErrorMessage, duplicateFieldWarning, strictDecodingMessage, unknownFieldWarning } from './decode-messages.ts';
import { firstDecodeError } from './type-errors.ts';
import { findUnknownFieldsForNode, pruneUnknownFieldsForNode } from './unknown-fields.ts';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** the fieldValidation query parameter; '' or absent means Warn; undefined for anything else */
export function parseFieldValidation(value: string | undefined | null): FieldValidation | undefined {
  if (value === undefined || value === null || value === '') return 'Warn';
  return value === 'Ignore' || value === 'Warn' || value === 'Strict' ? value : undefined;
}

export interface DecodeCheck {
  /** kind and version the body was decoded as, for `Pod in version "v1" cannot be handled as a Pod` */
  kind: string;
  version: string;
  fieldValidation: FieldValidation;
  /** duplicate keys the JSON/YAML decoder saw, as paths (`metadata.name`) */
  duplicateFields?: string[];
  /**
   * Wrap failures in the "cannot be handled as a" sentence (create and update bodies). Patch
   * results are reported bare, as Kubernetes does after applying a patch.
   */
  wrap?: boolean;
}

/**
 * Checks a decoded body against its definition. Throws a 400 StatusError for a type mismatch or,
 * at Strict, for unknown/duplicate fields. Otherwise removes unknown fields from `obj` in place
 * and returns the warnings to send (empty at Ignore).
 */
export function checkDecodedObject(obj: unknown, rootDefinition: string, opts: DecodeCheck): string[] {
  const node = schemaNode(rootDefinition);
  if (!node) return [];
  const wrap = (detail: string): string => opts.wrap === false ? detail : decodeErrorMessage(opts.kind, opts.version, detail);
  const typeError = firstDecodeError(obj, rootDefinition);
  if (typeError) throw badRequest(wrap(typeError));
  const duplicates = opts.duplicateFields ?? [];
  if (opts.fieldValidation === 'Strict') {
    const unknown = findUnknownFieldsForNode(obj, node);
    const problems = [...duplicates.map(duplicateFieldWarning), ...unknown.map(unknownFieldWarning)];
    if (problems.length) throw badRequest(wrap(strictDecodingMessage(problems)));
    return [];
  }
  const pruned = pruneUnknownFieldsForNode(obj, node);
  if (opts.fieldValidation === 'Ignore') return [];
  return [...duplicates.map(duplicateFieldWarning), ...pruned.map(unknownFieldWarning)];
}
