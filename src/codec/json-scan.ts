// A structural walk over JSON text that builds no values. JSON.parse keeps the last of two
// equal keys without a word, and its error messages are not the ones Go clients know, so this
// scanner answers the two questions JSON.parse cannot: which field paths appear twice, and
// what is wrong with a malformed body (worded as Go's encoding/json words it).

export class JsonSyntaxError extends Error {
  /** where in the text the problem was found */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
  }
}

/** Go's decoders refuse values nested deeper than this (objects and arrays counted together) */
export const maxJsonDepth = 10_000;

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c;
const LBRACE = 0x7b, RBRACE = 0x7d, LBRACKET = 0x5b, RBRACKET = 0x5d;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Go quotes the offending character the way strconv.QuoteRune does */
function quoteChar(text: string, i: number): string {
  const ch = String.fromCodePoint(text.codePointAt(i)!);
  if (ch === "'") return "'\\''";
  if (ch === '\\') return "'\\\\'";
  if (ch === '\n') return "'\\n'";
  if (ch === '\r') return "'\\r'";
  if (ch === '\t') return "'\\t'";
  const c = ch.codePointAt(0)!;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  return `'${ch}'`;
}

function invalidChar(text: string, i: number, context: string): JsonSyntaxError {
  return new JsonSyntaxError(`invalid character ${quoteChar(text, i)} ${context}`, i);
}

function unexpectedEnd(i: number): JsonSyntaxError {
  return new JsonSyntaxError('unexpected end of JSON input', i);
}

interface Frame {
  /** object keys seen so far (null for arrays) */
  keys: string[] | null;
  /** index of the next array element */
  index: number;
  /** the path of this container, as field validation prints it */
  path: string;
}

function childPath(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/**
 * Walk the whole text; returns the paths of fields that appear more than once in the same
 * object (`metadata.name`, `spec.containers[0].image`). Throws JsonSyntaxError when the text is
 * not one JSON value.
 */
export function scanJson(text: string): string[] {
  const n = text.length;
  const dups: string[] = [];
  const stack: Frame[] = [];
  let i = 0;

  const skipSpace = () => { while (i < n && isSpace(text.charCodeAt(i))) i++; };

  // returns the end (exclusive) of the string starting at the quote at i
  const stringEnd = (start: number): number => {
    let j = start + 1;
    for (;;) {
      const q = text.indexOf('"', j);
      if (q < 0) throw unexpectedEnd(n);
      let b = q - 1, slashes = 0;
      while (b > start && text.charCodeAt(b) === BACKSLASH) { slashes++; b--; }
      if (slashes % 2 === 0) {
        // control characters are not allowed raw inside strings
        for (let k = start + 1; k < q; k++) {
          const c = text.charCodeAt(k);
          if (c < 0x20) throw invalidChar(text, k, 'in string literal');
        }
        return q + 1;
      }
      j = q + 1;
    }
  };

  const keyText = (start: number, end: number): string => {
    const raw = text.slice(start + 1, end - 1);
    if (raw.indexOf('\\') < 0) return raw;
    try { return JSON.parse(text.slice(start, end)) as string; } catch { throw invalidChar(text, start, 'in string escape code'); }
  };

  const scalarEnd = (start: number): number => {
    let j = start;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (isSpace(c) || c === COMMA || c === RBRACE || c === RBRACKET || c === COLON) break;
      j++;
    }
    const word = text.slice(start, j);
    if (word === 'true' || word === 'false' || word === 'null') return j;
    if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(word)) return j;
    // find the first character that breaks the literal, as Go reports it
    const c0 = text.charCodeAt(start);
    if (c0 === 0x74 || c0 === 0x66 || c0 === 0x6e) {
      const want = c0 === 0x74 ? 'true' : c0 === 0x66 ? 'false' : 'null';
      for (let k = 0; k < want.length; k++) {
        if (start + k >= n) throw unexpectedEnd(n);
        if (text[start + k] !== want[k]) throw invalidChar(text, start + k, `in literal ${want} (expecting '${want[k]}')`);
      }
      throw invalidChar(text, start + want.length, 'after top-level value');
    }
    if (c0 === 0x2d || (c0 >= 0x30 && c0 <= 0x39)) {
      if (j === start + 1 && c0 === 0x2d) {
        if (j >= n) throw unexpectedEnd(n);
        throw invalidChar(text, j, 'in numeric literal');
      }
      for (let k = start + 1; k < j; k++) {
        const c = text.charCodeAt(k);
        if (!((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d)) throw invalidChar(text, k, 'in numeric literal');
      }
      if (j >= n) throw unexpectedEnd(n);
      throw invalidChar(text, j - 1, 'in numeric literal');
    }
    throw invalidChar(text, start, 'looking for beginning of value');
  };

  // after a value: close containers, or expect a separator
  const afterValue = (): boolean => {
    for (;;) {
      skipSpace();
      const top = stack[stack.length - 1];
      if (!top) {
        if (i < n) throw invalidChar(text, i, 'after top-level value');
        return true;
      }
      if (i >= n) throw unexpectedEnd(n);
      const c = text.charCodeAt(i);
      if (top.keys) {
        if (c === COMMA) { i++; return false; }
        if (c === RBRACE) { i++; stack.pop(); continue; }
        throw invalidChar(text, i, "after object key:value pair");
      }
      if (c === COMMA) { i++; top.index++; return false; }
      if (c === RBRACKET) { i++; stack.pop(); continue; }
      throw invalidChar(text, i, 'after array element');
    }
  };

  // the path of the value about to be read in the current container
  let valuePath = '';

  for (;;) {
    skipSpace();
    const top = stack[stack.length - 1];
    if (top?.keys) {
      // expecting a key
      if (i >= n) throw unexpectedEnd(n);
      if (text.charCodeAt(i) !== QUOTE) throw invalidChar(text, i, 'looking for beginning of object key string');
      const end = stringEnd(i);
      const key = keyText(i, end);
      i = end;
      skipSpace();
      if (i >= n) throw unexpectedEnd(n);
      if (text.charCodeAt(i) !== COLON) throw invalidChar(text, i, 'after object key');
      i++;
      valuePath = childPath(top.path, key);
      if (top.keys.includes(key)) { if (!dups.includes(valuePath)) dups.push(valuePath); } else top.keys.push(key);
      skipSpace();
    } else if (top) {
      valuePath = `${top.path}[${top.index}]`;
    }
    if (i >= n) throw unexpectedEnd(n);
    const c = text.charCodeAt(i);
    // Go counts a container as soon as it opens, so even an empty one can be one too deep
    if ((c === LBRACE || c === LBRACKET) && stack.length >= maxJsonDepth) throw invalidChar(text, i, 'exceeded max depth');
    if (c === LBRACE) {
      i++;
      skipSpace();
      if (i < n && text.charCodeAt(i) === RBRACE) { i++; if (afterValue()) return dups; continue; }
      stack.push({ keys: [], index: 0, path: valuePath });
      continue;
    }
    if (c === LBRACKET) {
      i++;
      skipSpace();
      if (i < n && text.charCodeAt(i) === RBRACKET) { i++; if (afterValue()) return dups; continue; }
      stack.push({ keys: null, index: 0, path: valuePath });
      continue;
    }
    if (c === QUOTE) i = stringEnd(i);
    else if (c === RBRACKET || c === RBRACE || c === COMMA || c === COLON) throw invalidChar(text, i, 'looking for beginning of value');
    else i = scalarEnd(i);
    if (afterValue()) return dups;
  }
}

/**
 * How many object keys the text holds, counting repeats, or -1 when this quick count cannot
 * be trusted (some key is followed by white space before its colon). It only searches for
 * colons (native string search, no allocation per key); compared with the key count of the
 * parsed value it tells whether any key was repeated, so the full scan runs only then.
 */
export function countJsonKeys(text: string): number {
  if (spaceBeforeColon.test(text)) return -1;
  let keys = 0;
  // single-character search is several times faster than searching for the pair
  let i = text.indexOf(':');
  while (i >= 0) {
    if (text.charCodeAt(i - 1) === QUOTE) {
      // a quote preceded by an odd run of backslashes is inside a string, not the end of a key
      let b = i - 2, slashes = 0;
      while (b >= 0 && text.charCodeAt(b) === BACKSLASH) { slashes++; b--; }
      if ((slashes & 1) === 0) keys++;
    }
    i = text.indexOf(':', i + 1);
  }
  return keys;
}

const spaceBeforeColon = /"[ \t\r\n]+:/;

/**
 * How deep valid JSON text nests objects and arrays, counted up to `cap + 1` (the walk stops
 * there). Only brackets outside strings count.
 */
export function jsonNestingDepth(text: string, cap: number): number {
  let depth = 0, deepest = 0;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // jump to the closing quote: one not preceded by an odd run of backslashes
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return deepest;
        let b = i - 1, slashes = 0;
        while (text.charCodeAt(b) === BACKSLASH) { slashes++; b--; }
        if ((slashes & 1) === 0) break;
      }
    } else if (c === LBRACE || c === LBRACKET) {
      if (++depth > deepest && (deepest = depth) > cap) return deepest;
    } else if (c === RBRACE || c === RBRACKET) {
      depth--;
    }
  }
  return deepest;
}

/** how many keys the objects in a parsed JSON value hold (a loop, not recursion: values may nest deeply) */
export function countValueKeys(v: unknown): number {
  let keys = 0;
  const pending: unknown[] = [v];
  while (pending.length > 0) {
    const x = pending.pop();
    if (typeof x !== 'object' || x === null) continue;
    if (Array.isArray(x)) {
      for (let k = 0; k < x.length; k++) { const e = x[k]; if (typeof e === 'object' && e !== null) pending.push(e); }
      continue;
    }
    for (const k in x as Record<string, unknown>) {
      keys++;
      const e = (x as Record<string, unknown>)[k];
      if (typeof e === 'object' && e !== null) pending.push(e);
    }
  }
  return keys;
}
