// A webhook's clientConfig and name, checked as kube-apiserver's webhook validation checks
// them: exactly one of url (https, a host, no user, query or fragment) and service (name,
// namespace, a valid port, a path of DNS-subdomain segments); names fully qualified.

import type { FieldError } from '../../api/status.ts';
import { dns1035Label, dns1123Subdomain } from '../../api/names.ts';

const form = '; desired format: https://host[/path]';

export function validateWebhookUrl(field: string, raw: string): FieldError[] {
  let u: URL;
  try {
    u = new URL(raw);
  } catch (err) {
    // Go's url.Parse accepts most strings; a URL without a scheme fails on the scheme and host below
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(raw)) {
      return [
        { type: 'FieldValueInvalid', field, value: '', detail: `'https' is the only allowed URL scheme${form}` },
        { type: 'FieldValueInvalid', field, value: '', detail: `host must be specified${form}` },
      ];
    }
    return [{ type: 'FieldValueRequired', field, detail: `url must be a valid URL: ${(err as Error).message}${form}` }];
  }
  const errs: FieldError[] = [];
  const scheme = u.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push({ type: 'FieldValueInvalid', field, value: scheme, detail: `'https' is the only allowed URL scheme${form}` });
  if (!u.host) errs.push({ type: 'FieldValueInvalid', field, value: '', detail: `host must be specified${form}` });
  if (u.username || u.password) errs.push({ type: 'FieldValueInvalid', field, value: u.password ? `${u.username}:${u.password}` : u.username, detail: 'user information is not permitted in the URL' });
  if (u.hash.length > 1) errs.push({ type: 'FieldValueInvalid', field, value: u.hash.slice(1), detail: 'fragments are not permitted in the URL' });
  if (u.search.length > 1) errs.push({ type: 'FieldValueInvalid', field, value: u.search.slice(1), detail: 'query parameters are not permitted in the URL' });
  return errs;
}

export function validateWebhookService(field: string, s: { name?: string; namespace?: string; path?: string; port?: number }): FieldError[] {
  const errs: FieldError[] = [];
  // no detail since Kubernetes 1.34
  if (!s.name) errs.push({ type: 'FieldValueRequired', field: `${field}.name` });
  if (!s.namespace) errs.push({ type: 'FieldValueRequired', field: `${field}.namespace` });
  const port = s.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) errs.push({ type: 'FieldValueInvalid', field: `${field}.port`, value: port, detail: 'port is not valid: must be between 1 and 65535, inclusive' });
  const path = s.path;
  if (path === undefined || path === '' || path === '/') return errs;
  const pf = `${field}.path`;
  if (path === '//') return [...errs, { type: 'FieldValueInvalid', field: pf, value: path, detail: 'segment[0] may not be empty' }];
  if (!path.startsWith('/')) errs.push({ type: 'FieldValueInvalid', field: pf, value: path, detail: "must start with a '/'" });
  let rest = path.slice(1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (!step) { errs.push({ type: 'FieldValueInvalid', field: pf, value: path, detail: `segment[${i}] may not be empty` }); return; }
    for (const f of dns1123Subdomain(step)) errs.push({ type: 'FieldValueInvalid', field: pf, value: path, detail: `segment[${i}]: ${f}` });
  });
  return errs;
}

/** a webhook's name: a DNS subdomain of at least three segments (`x.example.com`) */
export function validateFullyQualifiedName(field: string, name: string | undefined): FieldError[] {
  if (!name) return [{ type: 'FieldValueRequired', field }];
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  const errs = dns1123Subdomain(n);
  if (errs.length) return [{ type: 'FieldValueInvalid', field, value: n, detail: errs.join(',') }];
  if (n.split('.').length < 3) return [{ type: 'FieldValueInvalid', field, value: n, detail: 'should be a domain with at least three segments separated by dots' }];
  return [];
}

/** the review versions the server speaks (AdmissionReview and ConversionReview alike) */
export const knownReviewVersions = ['v1', 'v1beta1'];

/**
 * A webhook's review versions: present (`requiredDetail` words the absence), no duplicates,
 * DNS-1035 labels, and, when `requireKnown`, one the server speaks.
 */
export function validateReviewVersions(field: string, versions: string[] | undefined, requireKnown: boolean, requiredDetail?: string): FieldError[] {
  if (!versions?.length) return [{ type: 'FieldValueRequired', field, ...(requiredDetail ? { detail: requiredDetail } : {}) }];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) { errs.push({ type: 'FieldValueInvalid', field: `${field}[${i}]`, value: v, detail: 'duplicate version' }); return; }
    seen.add(v);
    for (const m of dns1035Label(v)) errs.push({ type: 'FieldValueInvalid', field: `${field}[${i}]`, value: v, detail: m });
  });
  if (requireKnown && !versions.some(v => knownReviewVersions.includes(v))) {
    errs.push({ type: 'FieldValueInvalid', field, value: versions, detail: `must include at least one of ${knownReviewVersions.join(', ')}` });
  }
  return errs;
}
