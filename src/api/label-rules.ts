// Qualified names (label and annotation keys) and label values, the one home of these rules.
// Kubernetes 1.36 words them two ways and clients print both: selectors through the newer
// "content" validators (lengths in bytes), object metadata through the older ones (lengths in
// characters, a too-long name reported alone). A key's prefix is an RFC 1123 subdomain, the
// rule of names.ts.

import { dns1123SubdomainFmt as subdomainFmt, dns1123SubdomainMaxLength, dns1123SubdomainMsg as subdomainMsg, isDns1123Subdomain, regexError } from './names.ts';

const keyNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const keyNameRe = new RegExp(`^${keyNameFmt}$`);
const keyNameMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const valueFmt = `(${keyNameFmt})?`;
const valueRe = new RegExp(`^${valueFmt}$`);
const valueMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export const labelKeyNameMaxBytes = 63;
export const labelValueMaxBytes = 63;
export const labelPrefixMaxBytes = dns1123SubdomainMaxLength;

const utf8 = new TextEncoder();

/** whether the UTF-8 form of s is longer than limit bytes (encodes only when it cannot tell otherwise) */
function overBytes(s: string, limit: number): boolean {
  if (s.length > limit) return true;
  if (s.length * 3 <= limit) return false;
  return utf8.encode(s).length > limit;
}

function maxLen(n: number): string {
  return `must be no more than ${n} bytes`;
}

function subdomainErrors(v: string): string[] {
  const errs: string[] = [];
  if (overBytes(v, labelPrefixMaxBytes)) errs.push(maxLen(labelPrefixMaxBytes));
  if (!isDns1123Subdomain(v)) errs.push(regexError(subdomainMsg, subdomainFmt, 'example.com'));
  return errs;
}

/** problems with a label key ("prefix/name" or "name"); empty when valid */
export function labelKeyErrors(key: string): string[] {
  const parts = key.split('/');
  const errs: string[] = [];
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...subdomainErrors(prefix).map(m => `prefix part ${m}`));
  } else {
    return [`a valid label key ${regexError(keyNameMsg, keyNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (overBytes(name, labelKeyNameMaxBytes)) errs.push(`name part ${maxLen(labelKeyNameMaxBytes)}`);
  if (!keyNameRe.test(name)) errs.push(`name part ${regexError(keyNameMsg, keyNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** problems with a label value; empty when valid (the empty string is a valid value) */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (overBytes(value, labelValueMaxBytes)) errs.push(maxLen(labelValueMaxBytes));
  if (!valueRe.test(value)) errs.push(regexError(valueMsg, valueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** problems with a label or annotation key in object metadata; empty when valid */
export function qualifiedNameErrors(key: string): string[] {
  const parts = key.split('/');
  let name = key;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix, n] = parts as [string, string];
    name = n;
    if (!prefix) errs.push('prefix part must be non-empty');
    else if (prefix.length > labelPrefixMaxBytes || !isDns1123Subdomain(prefix)) errs.push(`prefix part ${regexError(subdomainMsg, subdomainFmt, 'example.com')}`);
  } else if (parts.length > 2) {
    return [`a qualified name ${regexError(keyNameMsg, keyNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (!name) errs.push('name part must be non-empty');
  else if (name.length > labelKeyNameMaxBytes) errs.push(`name part must be no more than ${labelKeyNameMaxBytes} characters`);
  else if (!keyNameRe.test(name)) errs.push(`name part ${regexError(keyNameMsg, keyNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** problems with a label value in object metadata; empty when valid */
export function metadataLabelValueErrors(value: string): string[] {
  if (value.length > labelValueMaxBytes) return [`must be no more than ${labelValueMaxBytes} characters`];
  return valueRe.test(value) ? [] : [regexError(valueMsg, valueFmt, 'MyValue', 'my_value', '12345')];
}
