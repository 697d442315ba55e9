// The times Kubernetes writes, from the milliseconds a caller's clock gave (src/api/clock.ts):
// one formatter for each of Go's layouts, so every component writes them alike.

function iso(t: number | Date): string {
  return (typeof t === 'number' ? new Date(t) : t).toISOString();
}

/** metav1.Time: RFC 3339 in UTC, to the second (conditions, timestamps in metadata) */
export function rfc3339(t: number | Date): string {
  return iso(t).replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime: RFC 3339 with six fractional digits (lease renewals, events) */
export function rfc3339Micro(t: number | Date): string {
  return iso(t).replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Go's RFC3339Nano: the fraction without trailing zeros, none at all when zero (log lines) */
export function rfc3339Nano(t: number | Date): string {
  return iso(t).replace(/\.(\d+)Z$/, (_, frac: string) => {
    const trimmed = frac.replace(/0+$/, '');
    return trimmed ? `.${trimmed}Z` : 'Z';
  });
}
