// PodLogOptions as the agent's /containerLogs endpoint takes them from the query, checked as the
// API server checks them (negative numbers and both since forms at once are refused).

export interface LogOptions {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  /** ms since the epoch; lines before it are skipped */
  since?: number;
}

export class LogOptionsError extends Error {}

function int(q: URLSearchParams, name: string, min: number): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new LogOptionsError(`${name}: Invalid value: "${v}": must be an integer`);
  if (n < min) throw new LogOptionsError(`${name}: Invalid value: ${n}: must be ${min === 1 ? 'greater than 0' : 'greater than or equal to 0'}`);
  return n;
}

const bool = (q: URLSearchParams, name: string) => q.get(name) === 'true' || q.get(name) === '1';

export function parseLogOptions(q: URLSearchParams, now: number): LogOptions {
  const sinceSeconds = int(q, 'sinceSeconds', 1);
  const sinceTime = q.get('sinceTime') || undefined;
  if (sinceSeconds !== undefined && sinceTime) throw new LogOptionsError('at most one of `sinceTime` or `sinceSeconds` may be specified');
  let since: number | undefined;
  if (sinceSeconds !== undefined) since = now - sinceSeconds * 1000;
  if (sinceTime) {
    since = Date.parse(sinceTime);
    if (Number.isNaN(since)) throw new LogOptionsError(`sinceTime: Invalid value: "${sinceTime}": must be an RFC 3339 time`);
  }
  return { follow: bool(q, 'follow'), previous: bool(q, 'previous'), timestamps: bool(q, 'timestamps'), tailLines: int(q, 'tailLines', 0), limitBytes: int(q, 'limitBytes', 1), since };
}
