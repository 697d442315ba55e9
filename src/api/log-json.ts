// component-base's JSON format (`--logging-format=json`, zap through zapr):
//   {"ts":1732736707123.456,"caller":"apiserver/server.ts:254","msg":"...","v":0,"key":"value"}
// ts is Unix time in milliseconds as a float, as its epochMillisTimeEncoder writes it (not
// seconds); caller is zap's short form (the last directory and the file). There is no severity
// field: an info line carries its verbosity "v" (a warning is V(0), as klog hands warnings to the
// logger as plain info), an error line has no "v" and its error last as "err". Pairs given by
// `with` come before "v", as zap writes a logger's context fields first. zap keeps a key given
// twice; so do we.

export interface JsonEntry {
  epochMs: number;
  caller: string;
  msg: string;
  /** undefined for an error line */
  v?: number;
  context: Array<[string, unknown]>;
  pairs: Array<[string, unknown]>;
  /** an error line's error, written last */
  err?: unknown;
}

function jsonValue(v: unknown): string {
  if (v instanceof Error) return JSON.stringify(v.message);
  if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64'));
  if (typeof v === 'bigint') return v.toString();
  // zap writes a float that JSON has no number for as a string
  if (typeof v === 'number' && !Number.isFinite(v)) return `"${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}"`;
  try {
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? 'null';
  } catch (err) {
    return JSON.stringify(`<error: ${(err as Error).message}>`);
  }
}

function pairs(list: Array<[string, unknown]>): string {
  let out = '';
  for (const [k, v] of list) if (v !== undefined) out += `,${JSON.stringify(k)}:${jsonValue(v)}`;
  return out;
}

/** one whole line, ending in a line break */
export function jsonLine(e: JsonEntry): string {
  let out = `{"ts":${e.epochMs},"caller":${JSON.stringify(e.caller)},"msg":${JSON.stringify(e.msg)}`;
  out += pairs(e.context);
  if (e.v !== undefined) out += `,"v":${e.v}`;
  out += pairs(e.pairs);
  if (e.err !== undefined) out += `,"err":${jsonValue(e.err)}`;
  return out + '}\n';
}
