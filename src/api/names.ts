// Object name rules, worded as Kubernetes words them (clients print these messages).

const dns1123LabelRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123SubdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dns1035LabelRe = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'path-segment';

export function dns1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!dns1123SubdomainRe.test(v)) {
    errs.push(`a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`);
  }
  return errs;
}

export function dns1123Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1123LabelRe.test(v)) {
    errs.push(`a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`);
  }
  return errs;
}

export function dns1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!dns1035LabelRe.test(v)) {
    errs.push(`a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`);
  }
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
