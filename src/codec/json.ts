// JSON request bodies: JSON.parse for speed, plus what it cannot tell — repeated fields (which
// field validation reports) and Go-worded syntax errors (which clients show to people).

import { badRequest } from '../api/status.ts';
import { countJsonKeys, countValueKeys, jsonNestingDepth, JsonSyntaxError, maxJsonDepth, scanJson } from './json-scan.ts';
import { maxBodyNesting, nestedTooDeeply } from './nesting.ts';

export interface DecodedJson {
  object: unknown;
  /** paths of fields given more than once in one object; the last one given wins */
  duplicates: string[];
}

/** Kubernetes first reads only apiVersion and kind into this struct; a non-object fails there */
const typeMetaStruct = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

const goTypeNames: Record<string, string> = { string: 'string', number: 'number', boolean: 'bool' };

/** the 400 Kubernetes answers for a body that is JSON but not an object */
export function notAnObjectError(value: unknown): Error {
  const what = Array.isArray(value) ? 'array' : goTypeNames[typeof value] ?? 'null';
  return badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${what} into Go value of type ${typeMetaStruct}`);
}

/** the 400 for an apiVersion or kind that is not a string, which that first read fails on */
export function typeMetaFieldError(field: 'apiVersion' | 'kind', value: unknown): Error {
  const what = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : goTypeNames[typeof value] ?? typeof value;
  return badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${what} into Go struct field .${field} of type string`);
}

/** the syntax error in malformed JSON text, worded as Go words it */
export function jsonSyntaxMessage(text: string, fallback: string): string {
  try {
    scanJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err.message;
    throw err;
  }
  return fallback;
}

/**
 * Parse JSON text. `duplicates` (default true) looks for repeated fields: a count of keys in
 * the text is compared with the count in the parsed value, and only on a mismatch does the
 * slower scan run to name the paths.
 */
export function decodeJson(text: string, opts: { duplicates?: boolean; requireObject?: boolean } = {}): DecodedJson {
  let object: unknown;
  try {
    object = JSON.parse(text);
  } catch (err) {
    throw badRequest(`couldn't get version/kind; json parse error: ${jsonSyntaxMessage(text, (err as Error).message)}`);
  }
  // JSON.parse takes any depth; Go's decoder, and code here that walks values, do not
  // (a value d levels deep takes at least 2d characters, so short bodies are not looked at)
  const depth = text.length > 2 * maxBodyNesting ? jsonNestingDepth(text, maxJsonDepth) : 0;
  if (depth > maxJsonDepth) throw badRequest(`couldn't get version/kind; json parse error: ${jsonSyntaxMessage(text, 'exceeded max depth')}`);
  if (depth > maxBodyNesting) throw nestedTooDeeply();
  if (opts.requireObject !== false && (typeof object !== 'object' || object === null || Array.isArray(object))) {
    throw notAnObjectError(object);
  }
  if (opts.duplicates === false || typeof object !== 'object' || object === null) return { object, duplicates: [] };
  if (countJsonKeys(text) === countValueKeys(object)) return { object, duplicates: [] };
  return { object, duplicates: scanJson(text) };
}
