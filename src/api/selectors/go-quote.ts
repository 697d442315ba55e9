// Go's %q rendering of a string. Kubernetes error messages quote offending values this way
// (`Invalid value: "x"`, `"foo" is not a known field selector`), and clients show them verbatim,
// so the escapes must be Go's rather than JSON's.

const namedEscapes: Record<number, string> = {
  0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v',
  0x22: '\\"', 0x5c: '\\\\',
};

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const named = namedEscapes[cp];
    if (named) out += named;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd'; // a lone surrogate is not valid text
    else if (cp < 0x80) out += cp >= 0x20 && cp < 0x7f ? ch : `\\x${hex(cp, 2)}`;
    else if (printable.test(ch)) out += ch;
    else out += cp < 0x10000 ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
  }
  return out + '"';
}
