// YAML bodies in and out. Kubernetes reads and writes YAML through Go's YAML 1.1 library and
// converts to and from JSON, so both directions here follow YAML 1.1 scalars (yes/no/on/off
// are booleans, 0777 is octal) while timestamps stay strings, as they do for Go clients.

import { isMap, isScalar, isSeq, parseAllDocuments, stringify, type Document, type CreateNodeOptions, type ParseOptions, type DocumentOptions, type SchemaOptions, type ToStringOptions, type Node } from 'yaml';
import { badRequest } from '../api/status.ts';
import { notAnObjectError } from './json.ts';

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
  if (isScalar(key)) return String(key.value);
  return String(key);
}

function findDuplicates(node: Node | null | undefined, path: string, out: string[]): void {
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = keyText(pair.key);
      const child = path ? `${path}.${key}` : key;
      if (seen.has(key)) { if (!out.includes(child)) out.push(child); } else seen.add(key);
      findDuplicates(pair.value as Node | null, child, out);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => findDuplicates(item as Node | null, `${path}[${i}]`, out));
  }
}

/** the single YAML document in `text`, as a JSON-shaped value */
export function decodeYaml(text: string, opts: { requireObject?: boolean } = {}): DecodedYaml {
  const parsed = parseAllDocuments(text, readOptions);
  const docs: Document.Parsed[] = Array.isArray(parsed) ? parsed : [];
  // a `---` with nothing after it makes an empty (null) document; it is not a second object
  const real = docs.filter(d => d.errors.length > 0 || !(d.contents === null || (isScalar(d.contents) && d.contents.value === null)));
  if (real.length > 1) throw badRequest('error converting YAML to JSON: the body holds more than one YAML document; send one object per request');
  const doc = real[0];
  if (!doc) throw badRequest("couldn't get version/kind; json parse error: unexpected end of JSON input");
  if (doc.errors.length) throw yamlError(describe(doc.errors[0]!));
  let object: unknown;
  try {
    object = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw yamlError((err as Error).message);
  }
  if (opts.requireObject !== false && (typeof object !== 'object' || object === null || Array.isArray(object))) throw notAnObjectError(object);
  const duplicates: string[] = [];
  findDuplicates(doc.contents, '', duplicates);
  return { object, duplicates };
}

/** a value as YAML, the way Kubernetes writes it: sorted keys, YAML 1.1 quoting, no folding */
export function encodeYaml(value: unknown): string {
  return stringify(value, writeOptions);
}
