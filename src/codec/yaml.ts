// YAML bodies in and out. Kubernetes reads and writes YAML through Go's YAML 1.1 library and
// converts to and from JSON, so both directions here follow YAML 1.1 scalars (yes/no/on/off
// are booleans, 0777 is octal) while timestamps stay strings, as they do for Go clients.

import type { Document, CreateNodeOptions, ParseOptions, DocumentOptions, SchemaOptions, ToStringOptions, Node } from 'yaml';
import { yamlLibrary } from '../api/yaml-library.ts';
import { badRequest, StatusError } from '../api/status.ts';
import { notAnObjectError } from './json.ts';
import { maxBodyNesting, nestedTooDeeply } from './nesting.ts';

export interface DecodedYaml {
  object: unknown;
  /** paths of keys given more than once in one mapping; the last one given wins */
  duplicates: string[];
}

type Options = ParseOptions & DocumentOptions & SchemaOptions;

const readOptions: Options = {
  version: '1.1',
  uniqueKeys: false,
  logLevel: 'error',
  // Go's YAML library leaves timestamp-looking and base-60-looking scalars as strings
  customTags: tags => tags.filter(t => typeof t === 'string' || (t.tag !== 'tag:yaml.org,2002:timestamp' && t.format !== 'TIME')),
};

const writeOptions: Options & CreateNodeOptions & ToStringOptions = {
  version: '1.1',
  // Kubernetes writes YAML by way of a Go map, so keys come out sorted
  sortMapEntries: true,
  // sequences sit at their parent key's indentation, as Go writes them
  indentSeq: false,
  lineWidth: 0,
  aliasDuplicateObjects: false,
};

function yamlError(message: string): Error {
  return badRequest(`error converting YAML to JSON: yaml: ${message}`);
}

function describe(err: { message: string; linePos?: [{ line: number; col: number }, ...unknown[]] }): string {
  const text = err.message.split(' at line ')[0]!.trim();
  const line = err.linePos?.[0]?.line;
  return line ? `line ${line}: ${text}` : text;
}

function keyText(key: unknown): string {
  if (yamlLibrary().isScalar(key)) return String(key.value);
  return String(key);
}

function findDuplicates(node: Node | null | undefined, path: string, out: string[]): void {
  if (yamlLibrary().isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = keyText(pair.key);
      const child = path ? `${path}.${key}` : key;
      if (seen.has(key)) { if (!out.includes(child)) out.push(child); } else seen.add(key);
      findDuplicates(pair.value as Node | null, child, out);
    }
  } else if (yamlLibrary().isSeq(node)) {
    node.items.forEach((item, i) => findDuplicates(item as Node | null, `${path}[${i}]`, out));
  }
}

/** a parse or conversion that ran out of stack was given a body nested too deeply */
function depthGuarded<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof RangeError) throw nestedTooDeeply();
    throw err;
  }
}

/**
 * Make what YAML's tags produced into what JSON can hold, in place, as Kubernetes' YAML-to-JSON
 * conversion does: binary becomes the string of its bytes, sets and ordered maps become objects;
 * NaN and infinities have no JSON form (400). A loop, not recursion: the value may nest deeply.
 */
function toJsonShape(root: unknown): unknown {
  const convert = (v: unknown): unknown => {
    if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
    if (v instanceof Set) return Object.fromEntries([...v].map(k => [String(k), null]));
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), x]));
    if (typeof v === 'number' && !Number.isFinite(v)) throw badRequest(`error converting YAML to JSON: json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`);
    if (typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function') throw badRequest(`error converting YAML to JSON: json: unsupported type: ${typeof v}`);
    return v;
  };
  const top = convert(root);
  const pending: Array<{ v: unknown; depth: number }> = [{ v: top, depth: 1 }];
  while (pending.length > 0) {
    const { v, depth } = pending.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxBodyNesting) throw nestedTooDeeply();
    const container = v as Record<string, unknown>;
    for (const k of Object.keys(container)) {
      const x = convert(container[k]);
      if (x !== container[k]) container[k] = x;
      if (typeof x === 'object' && x !== null) pending.push({ v: x, depth: depth + 1 });
    }
  }
  return top;
}

/** the single YAML document in `text`, as a JSON-shaped value */
export function decodeYaml(text: string, opts: { requireObject?: boolean } = {}): DecodedYaml {
  const parsed = depthGuarded(() => yamlLibrary().parseAllDocuments(text, readOptions));
  const docs: Document.Parsed[] = Array.isArray(parsed) ? parsed : [];
  // a `---` with nothing after it makes an empty (null) document; it is not a second object
  const real = docs.filter(d => d.errors.length > 0 || !(d.contents === null || (yamlLibrary().isScalar(d.contents) && d.contents.value === null)));
  if (real.length > 1) throw badRequest('error converting YAML to JSON: the body holds more than one YAML document; send one object per request');
  const doc = real[0];
  if (!doc) throw badRequest("couldn't get version/kind; json parse error: unexpected end of JSON input");
  if (doc.errors.length) {
    // the parser reports running out of stack as an error of the document
    if (doc.errors.some(e => e.message.includes('Maximum call stack'))) throw nestedTooDeeply();
    throw yamlError(describe(doc.errors[0]!));
  }
  let object: unknown;
  try {
    object = depthGuarded(() => toJsonShape(doc.toJS({ maxAliasCount: 100 })));
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw yamlError((err as Error).message);
  }
  if (opts.requireObject !== false && (typeof object !== 'object' || object === null || Array.isArray(object))) throw notAnObjectError(object);
  const duplicates: string[] = [];
  depthGuarded(() => findDuplicates(doc.contents, '', duplicates));
  return { object, duplicates };
}

/** a value as YAML, the way Kubernetes writes it: sorted keys, YAML 1.1 quoting, no folding */
export function encodeYaml(value: unknown): string {
  return yamlLibrary().stringify(value, writeOptions);
}
