// Warning headers as apimachinery's NewWarningHeader writes them: `299 - "<text>"` with only `"`
// and `\` escaped and the text's UTF-8 as it is. Text it refuses (control characters, invalid
// UTF-8) makes no header, as kube-apiserver's recorder drops such a warning; and a character
// Node cannot put in a header string (past U+00FF) never reaches one, which used to abort the
// reply (a fuzzed field name in an "unknown field" warning left the request unanswered).

/** the header value for one warning, or undefined when Kubernetes would send none */
export function warningHeader(text: string): string | undefined {
  if (!text || !text.isWellFormed() || /\p{Cc}/u.test(text)) return undefined;
  // Node writes a header string's characters as single bytes: the UTF-8 goes as those bytes
  return Buffer.from(`299 - "${text.replace(/["\\]/g, c => `\\${c}`)}"`, 'utf8').toString('latin1');
}

/** the Warning headers of a reply's warnings, in order */
export function warningHeaders(warnings: string[]): string[] {
  return warnings.map(warningHeader).filter((h): h is string => h !== undefined);
}
