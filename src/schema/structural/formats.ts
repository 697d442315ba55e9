// The string formats a CRD schema may name and how kube-openapi's strfmt registry checks them.
// apiextensions strips every other format (and integer/number formats other than
// int32/int64/float/double) before validating, so an unknown format never fails a value.
// Format names are compared with their dashes removed ("date-time" is "datetime").

import { parseAddress, parseCidr } from '../../api/address-ranges.ts';

const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const uuid4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const uuid5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const hostname = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
// govalidator's base64: padded standard alphabet
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const mac = /^(?:[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}|[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\2){6}[0-9A-Fa-f]{2}|[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\3){18}[0-9A-Fa-f]{2}|(?:[0-9A-Fa-f]{4}\.){2}[0-9A-Fa-f]{4}|(?:[0-9A-Fa-f]{4}\.){3}[0-9A-Fa-f]{4}|(?:[0-9A-Fa-f]{4}\.){9}[0-9A-Fa-f]{4})$/;
const hexcolor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbcolor = /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const ssn = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const bsonObjectId = /^[0-9a-fA-F]{24}$/;
const email = /^[^\s@<>()[\]]+@[^\s@<>()[\]]+$/;
const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
// RFC 3339 full-date, and date-time with the variants strfmt's parser accepts
const fullDate = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTime = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
// Go durations, and the Scala-like forms strfmt also accepts ("3 days", "1h")
const goDuration = /^[-+]?(\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))*$|^0$/;
const scalaDuration = /^[-+]?\d+\s*(ns|nanos?|nanoseconds?|us|µs|micros?|microseconds?|ms|millis?|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?)$/i;

function validDate(y: string, m: string, d: string): boolean {
  const year = Number(y), month = Number(m), day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= days;
}

function isDateTime(v: string): boolean {
  const m = dateTime.exec(v);
  if (!m || !validDate(m[1]!, m[2]!, m[3]!)) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 60;
}

// Go's net.ParseIP refuses IPv4 parts with leading zeros, which the sloppy parser reads
const leadingZero = /(^|[.:])0\d/;
const isIPv4 = (v: string) => parseAddress(v)?.family === 4 && !leadingZero.test(v);
const isIPv6 = (v: string) => parseAddress(v)?.family === 6 && !v.includes('%');

function isCidr(v: string): boolean {
  const ip = v.slice(0, v.lastIndexOf('/'));
  return parseCidr(v) !== undefined && !(parseAddress(ip)?.family === 4 && leadingZero.test(ip)) && !/\/0\d/.test(v);
}

function isRequestUri(v: string): boolean {
  // Go's url.ParseRequestURI: an absolute URI, or an absolute path
  if (v.startsWith('/')) return !/[\s]/.test(v);
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(v);
  if (!scheme) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

function isbn10(v: string): boolean {
  const s = v.replace(/[\s-]/g, '');
  if (!/^\d{9}[\dX]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(s[i]);
  sum += 10 * (s[9] === 'X' ? 10 : Number(s[9]));
  return sum % 11 === 0;
}

function isbn13(v: string): boolean {
  const s = v.replace(/[\s-]/g, '');
  if (!/^\d{13}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(s[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(s[12]);
}

function creditCard(v: string): boolean {
  const s = v.replace(/[^0-9]/g, '');
  if (!/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    let d = Number(s[s.length - 1 - i]);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  }
  return sum % 10 === 0;
}

const checks: Record<string, (v: string) => boolean> = {
  bsonobjectid: v => bsonObjectId.test(v),
  uri: isRequestUri,
  email: v => email.test(v),
  hostname: v => v.length <= 255 && hostname.test(v),
  ipv4: v => isIPv4(v),
  ipv6: isIPv6,
  cidr: isCidr,
  mac: v => mac.test(v),
  uuid: v => uuid.test(v),
  uuid3: v => uuid3.test(v),
  uuid4: v => uuid4.test(v),
  uuid5: v => uuid5.test(v),
  isbn: v => isbn10(v) || isbn13(v),
  isbn10,
  isbn13,
  creditcard: creditCard,
  ssn: v => ssn.test(v),
  hexcolor: v => hexcolor.test(v),
  rgbcolor: v => rgbcolor.test(v),
  byte: v => base64.test(v),
  password: () => true,
  date: v => { const m = fullDate.exec(v); return m !== null && validDate(m[1]!, m[2]!, m[3]!); },
  duration: v => goDuration.test(v) || scalaDuration.test(v),
  datetime: isDateTime,
  k8sshortname: v => v.length <= 63 && dns1123Label.test(v),
  k8slongname: v => v.length <= 253 && v.split('.').every(l => dns1123Label.test(l)),
};

/**
 * The format as validation sees it: the name kept for a string format Kubernetes knows, the
 * numeric formats kept for their types, '' for everything apiextensions strips.
 */
export function effectiveFormat(type: string | undefined, format: string | undefined): string {
  if (!format) return '';
  switch (type ?? '') {
    case '': case 'string': return checks[format.replaceAll('-', '')] ? format : '';
    case 'integer': return format === 'int32' || format === 'int64' ? format : '';
    case 'number': return format === 'float' || format === 'double' ? format : '';
    default: return '';
  }
}

/** whether a string value satisfies a (kept) string format; numeric formats do not apply */
export function stringMatchesFormat(format: string, value: string): boolean {
  const check = checks[format.replaceAll('-', '')];
  return check ? check(value) : true;
}
