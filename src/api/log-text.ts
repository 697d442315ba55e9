// klog's text format, the default of Kubernetes components (component-base `--logging-format=text`):
//   Lmmdd hh:mm:ss.uuuuuu threadid file:line] "msg" key="value" n=3 obj={"a":1}
// L is the severity letter (I, W, E); Go prints its process id where the thread id belongs, as we
// do. The message is always a Go-quoted string; values follow klog's rules: strings Go-quoted, or,
// with a line break, a block of tab-indented lines closed by " >"; errors as their message;
// everything else as Go's encoding/json writes it (HTML characters escaped). A key given twice keeps
// one pair: an identical repeat is dropped, a changed value replaces the old pair at the new place.

import { goQuote } from './selectors/go-quote.ts';

export type Severity = 'I' | 'W' | 'E';

const plain = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Go's strconv.Quote (asciiOnly: strconv.QuoteToASCII, what `%+q` writes) */
export function quote(s: string, asciiOnly = false): string {
  if (plain.test(s)) return `"${s}"`;
  const q = goQuote(s);
  if (!asciiOnly) return q;
  return q.replace(/[^\x00-\x7f]/gu, c => { const cp = c.codePointAt(0)!; return cp < 0x10000 ? '\\u' + cp.toString(16).padStart(4, '0') : '\\U' + cp.toString(16).padStart(8, '0'); });
}

const htmlEscapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** what Go's json.Encoder writes for a value (HTML-safe), or klog's text for a value it cannot encode */
function goJson(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' && !Number.isFinite(v)) return `"<internal error: json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}>"`;
  let json: string | undefined;
  try {
    json = JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  } catch (err) {
    // Go's encoder refuses a cycle the way JSON.stringify does; its words, on one line
    const why = (err as Error).message.startsWith('Converting circular') ? 'encountered a cycle' : (err as Error).message.split('\n')[0];
    return quote(`<internal error: json: unsupported value: ${why}>`);
  }
  return (json ?? 'null').replace(/[<>&\u2028\u2029]/g, c => htmlEscapes[c]!);
}

/** a string value: quoted on one line, or a block when it holds line breaks */
function stringValue(s: string): string {
  if (!s.includes('\n')) return '=' + quote(s);
  const lines = s.split('\n');
  const last = lines.pop()!;
  // the closing " >" always starts a line of its own; a value ending in a line break adds none
  return '=<\n' + lines.map(l => `\t${l}\n`).join('') + (last === '' ? ' >' : `\t${last}\n >`);
}

/** `=value` as klog writes it for one value */
function textValue(v: unknown): string {
  if (typeof v === 'string') return stringValue(v);
  if (v instanceof Error) return stringValue(v.message);
  if (v instanceof Date) return stringValue(Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString());
  if (v instanceof Uint8Array) return '=' + quote(new TextDecoder().decode(v), true);
  return '=' + goJson(v);
}

/** the key/value pairs of a line, each with its leading space, a repeated key kept once */
function textPairs(pairs: Array<[string, unknown]>): string {
  const kept: Array<[string, string]> = [];
  for (const [k, v] of pairs) {
    if (v === undefined) continue;
    const text = textValue(v);
    const i = kept.findIndex(e => e[0] === k);
    if (i >= 0) {
      if (kept[i]![1] === text) continue;
      kept.splice(i, 1);
    }
    kept.push([k, text]);
  }
  let out = '';
  for (const [k, text] of kept) out += ' ' + k + text;
  return out;
}

const two = (n: number) => (n < 10 ? '0' : '') + n;

/** `Lmmdd hh:mm:ss.uuuuuu threadid file:line] `, in local time as Go's time.Now() is */
export function textHeader(sev: Severity, epochMs: number, pid: number, file: string, line: number): string {
  const d = new Date(Math.floor(epochMs));
  const micros = Math.floor(epochMs * 1000) % 1_000_000;
  return `${sev}${two(d.getMonth() + 1)}${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(micros).padStart(6, '0')} ${String(pid).padStart(7, ' ')} ${file}:${line}] `;
}

/** one whole line, ending in a line break */
export function textLine(sev: Severity, epochMs: number, pid: number, file: string, line: number, msg: string, pairs: Array<[string, unknown]>): string {
  return textHeader(sev, epochMs, pid, file, line) + quote(msg) + textPairs(pairs) + '\n';
}
