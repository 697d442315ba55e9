// Checks for the few built-in value types that Go decodes with its own parser rather than as a
// plain JSON scalar: resource.Quantity, []byte (base64) and metav1.Time. Each returns the error
// text the Go parser would produce, or undefined when the value decodes.

const quantityPattern = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const quantityShape = new RegExp(quantityPattern);
const quantityFormatWrong = `quantities must match the regular expression '${quantityPattern}'`;
const quantitySuffixes = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);

/** resource.Quantity accepts a JSON number or a string such as "100m", "1Gi", "1e3" */
export function quantityError(v: unknown): string | undefined {
  if (v === null || typeof v === 'number') return undefined;
  if (typeof v !== 'string') return quantityFormatWrong; // true, {}, [] reach the parser as raw text
  const s = v.trim();
  const m = quantityShape.exec(s);
  if (!m) return quantityFormatWrong;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(m[1]!)) return 'unable to parse numeric part of quantity';
  const suffix = m[2]!;
  if (!quantitySuffixes.has(suffix) && !/^[eE][-+]?\d+$/.test(suffix)) return "unable to parse quantity's suffix";
  return undefined;
}

const base64Alphabet = /^[A-Za-z0-9+/]$/;
const utf8 = new TextEncoder();

/** where Go's padded standard base64 decoder gives up, as "illegal base64 data at input byte N" */
export function base64Error(s: string): string | undefined {
  // fast path: the common well-formed value
  if (s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s)) return undefined;
  const bytes = utf8.encode(s);
  const at = base64FailureOffset(bytes);
  return at === undefined ? undefined : `illegal base64 data at input byte ${at}`;
}

function isNewline(b: number | undefined): boolean { return b === 10 || b === 13; }

function base64FailureOffset(src: Uint8Array): number | undefined {
  let si = 0;
  for (;;) {
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return si - j; // a partial quantum without padding
      }
      const b = src[si++]!;
      if (base64Alphabet.test(String.fromCharCode(b))) continue;
      if (isNewline(b)) { j--; continue; }
      if (b !== 61 /* = */ || j < 2) return si - 1;
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return src.length;
        if (src[si] !== 61) return si - 1;
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      return si < src.length ? si : undefined;
    }
  }
}

const rfc3339 = '2006-01-02T15:04:05Z07:00';

/** metav1.Time / MicroTime: an RFC 3339 string; the wording follows Go's time.Parse */
export function timeError(v: string): string | undefined {
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v)) return rangeError(v);
  const cannot = (rest: string, elem: string): string =>
    `parsing time ${JSON.stringify(v)} as ${JSON.stringify(rfc3339)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(elem)}`;
  // walk the layout element by element to name the first one that does not match
  const steps: Array<[RegExp, string]> = [
    [/^\d{4}/, '2006'], [/^-/, '-'], [/^\d{2}/, '01'], [/^-/, '-'], [/^\d{2}/, '02'], [/^T/, 'T'],
    [/^\d{2}/, '15'], [/^:/, ':'], [/^\d{2}/, '04'], [/^:/, ':'], [/^\d{2}(\.\d+)?/, '05'],
    [/^(Z|[+-]\d{2}:\d{2})/, 'Z07:00'],
  ];
  let rest = v;
  for (const [re, elem] of steps) {
    const m = re.exec(rest);
    if (!m) return cannot(rest, elem);
    rest = rest.slice(m[0].length);
  }
  return `parsing time ${JSON.stringify(v)}: extra text: ${JSON.stringify(rest)}`;
}

function rangeError(v: string): string | undefined {
  const n = (a: number, b: number): number => Number(v.slice(a, b));
  const [year, month, day, hour, minute, second] = [n(0, 4), n(5, 7), n(8, 10), n(11, 13), n(14, 16), n(17, 19)];
  const out = (what: string): string => `parsing time ${JSON.stringify(v)}: ${what} out of range`;
  if (month < 1 || month > 12) return out('month');
  if (hour > 23) return out('hour');
  if (minute > 59) return out('minute');
  if (second > 59) return out('second');
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (day < 1 || day > daysInMonth) return out('day');
  return undefined;
}
