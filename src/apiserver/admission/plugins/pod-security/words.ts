// How the Pod Security checks word what they found, as pod-security-admission does: nouns in
// the singular or plural by count, lists of names each in double quotes (without escaping, as
// its joinQuote does), values quoted as Go's %q quotes them, and sets listed sorted.

/** the first word for one, the second otherwise (zero included) */
export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `"a", "b"`: each item in double quotes, nothing escaped; '' for none */
export function joinQuote(items: readonly string[]): string {
  return items.length ? `"${items.join('", "')}"` : '';
}

/** `container "a"` or `containers "a", "b"` */
export function named(singular: string, plural: string, names: readonly string[]): string {
  return `${pluralize(singular, plural, names.length)} ${joinQuote(names)}`;
}

/** distinct values sorted by code unit, as Go's string sets list them */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

const goEscapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };

/** a string as Go's %q writes it: printable characters kept, others escaped */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (goEscapes[ch]) out += goEscapes[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(ch) || (/\p{Zs}/u.test(ch) && ch !== ' ')) out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}
