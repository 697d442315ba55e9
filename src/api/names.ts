// Object name rules, worded as Kubernetes words them (clients print these messages).

/** "<msg> (e.g. 'a',  or 'b', regex used for validation is '<re>')": the doubled space is Kubernetes' */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((e, i) => { s += `${i > 0 ? ' or ' : ''}'${e}', `; });
  return `${s}regex used for validation is '${re}')`;
}

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
/** the RFC 1123 subdomain rule, shared with label and annotation key prefixes (label-rules.ts) */
export const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
export const dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
export const dns1123SubdomainMaxLength = 253;
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);
const labelMaxLength = 63;

export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'path-segment';

/** whether v matches the RFC 1123 subdomain pattern (length aside) */
export function isDns1123Subdomain(v: string): boolean {
  return dns1123SubdomainRe.test(v);
}

export function dns1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > dns1123SubdomainMaxLength) errs.push(`must be no more than ${dns1123SubdomainMaxLength} characters`);
  if (!dns1123SubdomainRe.test(v)) errs.push(regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

export function dns1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > labelMaxLength) errs.push(`must be no more than ${labelMaxLength} characters`);
  if (!dns1123LabelRe.test(v)) errs.push(regexError(dns1123LabelMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  return errs;
}

export function dns1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > labelMaxLength) errs.push(`must be no more than ${labelMaxLength} characters`);
  if (!dns1035LabelRe.test(v)) errs.push(regexError(dns1035LabelMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/** names that cannot appear as one segment of a URL path */
export function pathSegmentName(v: string): string[] {
  if (v === '.' || v === '..') return [`may not be '${v}'`];
  return ['/', '%'].filter(bad => v.includes(bad)).map(bad => `may not contain '${bad}'`);
}

export function validateName(rule: NameRule, v: string): string[] {
  const seg = pathSegmentName(v);
  if (seg.length) return seg;
  switch (rule) {
    case 'label': return dns1123Label(v);
    case 'dns1035': return dns1035Label(v);
    case 'path-segment': return [];
    default: return dns1123Subdomain(v);
  }
}

const generatedAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxGenerateNamePrefix = 58;

/** generateName plus five random characters, as Kubernetes forms them */
export function generateName(prefix: string, random: () => number = Math.random): string {
  const base = prefix.length > maxGenerateNamePrefix ? prefix.slice(0, maxGenerateNamePrefix) : prefix;
  let s = '';
  for (let i = 0; i < 5; i++) s += generatedAlphabet[Math.floor(random() * generatedAlphabet.length)];
  return base + s;
}
