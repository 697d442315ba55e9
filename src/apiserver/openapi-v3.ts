// Turns the Swagger 2.0 pieces (path items, definitions) into OpenAPI 3.0: definitions become
// components.schemas, body parameters become request bodies, media types move under content.
// x-kubernetes-* extensions travel unchanged; kubectl explain and field validation read them.

type Json = Record<string, unknown>;

const v2Prefix = '#/definitions/';
const v3Prefix = '#/components/schemas/';

/**
 * A schema with its references pointing at components.schemas. A reference with sibling keys
 * is wrapped in allOf, as OpenAPI 3.0 ignores anything beside a $ref.
 */
export function convertSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertSchema);
  if (!node || typeof node !== 'object') return node;
  const obj = node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === '$ref') continue;
    out[k] = convertSchema(v);
  }
  const r = obj.$ref;
  if (typeof r !== 'string') return out;
  const target = r.startsWith(v2Prefix) ? v3Prefix + r.slice(v2Prefix.length) : r;
  return Object.keys(out).length ? { allOf: [{ $ref: target }], ...out } : { $ref: target };
}

const statusText: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' };

function convertParameter(p: Json): Json {
  const { in: where, name, required, description, ...rest } = p;
  const out: Json = { name, in: where };
  if (description !== undefined) out.description = description;
  if (required !== undefined) out.required = required;
  const schema: Json = {};
  for (const [k, v] of Object.entries(rest)) schema[k] = v;
  out.schema = convertSchema(schema);
  return out;
}

function convertOperation(op: Json): Json {
  const out: Json = {};
  const consumes = (op.consumes as string[] | undefined) ?? ['*/*'];
  const produces = (op.produces as string[] | undefined) ?? ['application/json'];
  for (const [k, v] of Object.entries(op)) {
    if (k === 'consumes' || k === 'produces' || k === 'schemes' || k === 'parameters' || k === 'responses') continue;
    out[k] = v;
  }
  const params = (op.parameters as Json[] | undefined) ?? [];
  const bodyParam = params.find(p => p.in === 'body');
  const others = params.filter(p => p.in !== 'body').map(convertParameter);
  if (others.length) out.parameters = others;
  if (bodyParam) {
    const schema = convertSchema(bodyParam.schema);
    const content: Json = {};
    for (const mt of consumes) content[mt] = { schema };
    out.requestBody = bodyParam.required ? { content, required: true } : { content };
  }
  const responses: Json = {};
  for (const [code, resp] of Object.entries((op.responses as Json | undefined) ?? {})) {
    const r: Json = { description: statusText[code] ?? 'Response' };
    const schema = (resp as Json).schema;
    if (schema !== undefined) {
      const content: Json = {};
      const converted = convertSchema(schema);
      for (const mt of produces) content[mt] = { schema: converted };
      r.content = content;
    }
    responses[code] = r;
  }
  out.responses = responses;
  return out;
}

export function convertPaths(paths: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    const converted: Json = {};
    for (const [k, v] of Object.entries(item)) {
      converted[k] = k === 'parameters' ? (v as Json[]).map(convertParameter) : convertOperation(v as Json);
    }
    out[path] = converted;
  }
  return out;
}

/**
 * `definitions` are Swagger 2.0 definitions, converted here; `schemas` are already OpenAPI 3.0
 * (custom resources' definitions, which apiextensions-apiserver builds for v3 directly)
 */
export function openapiV3Document(info: Json, paths: Record<string, Json>, definitions: Record<string, unknown>, schemas3: Record<string, unknown> = {}): Json {
  const all = { ...definitions, ...schemas3 };
  const schemas: Json = {};
  for (const name of Object.keys(all).sort()) schemas[name] = name in schemas3 ? schemas3[name] : convertSchema(definitions[name]);
  return {
    openapi: '3.0.0',
    info,
    paths: convertPaths(paths),
    components: {
      schemas,
      securitySchemes: { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } },
    },
    security: [{ BearerToken: [] }],
  };
}
