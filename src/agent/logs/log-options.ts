// PodLogOptions as the kubelet's /containerLogs endpoint reads them from the query: `tail` is
// still taken for tailLines ("all": every line), booleans are false only for "0", "f" and
// "false", integers and times are Go's, and the since point is the later of sinceSeconds and
// sinceTime. A query that does not decode is a 400 and one that fails ValidatePodLogOptions a
// 422, each with the kubelet's terse body (the API server has already told the user why).

export interface LogOptions {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  /** ms since the epoch; lines before it are skipped */
  since?: number;
}

export class LogOptionsError extends Error {
  readonly code: 400 | 422;
  constructor(code: 400 | 422, message: string) {
    super(message);
    this.code = code;
  }
}

const undecodable = () => new LogOptionsError(400, '{"message": "Unable to decode query."}');
const invalid = () => new LogOptionsError(422, '{"message": "Invalid request."}');

function int(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw undecodable();
  return Number(v);
}

const bool = (q: URLSearchParams, name: string) => {
  const v = q.get(name);
  return v !== null && !(v === '0' || /^(f|false)$/i.test(v));
};

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function parseLogOptions(query: URLSearchParams, now: number): LogOptions {
  const q = new URLSearchParams(query);
  const tail = q.get('tail');
  if (tail !== null && tail !== '') {
    if (tail === 'all') q.delete('tailLines'); else q.set('tailLines', tail);
  }
  const sinceSeconds = int(q, 'sinceSeconds');
  const tailLines = int(q, 'tailLines');
  const limitBytes = int(q, 'limitBytes');
  const sinceTimeText = q.get('sinceTime');
  let sinceTime: number | undefined;
  if (sinceTimeText !== null && sinceTimeText !== '' && sinceTimeText !== 'null') {
    if (!rfc3339.test(sinceTimeText) || Number.isNaN(Date.parse(sinceTimeText))) throw undecodable();
    sinceTime = Date.parse(sinceTimeText);
  }
  // ValidatePodLogOptions
  if ((tailLines !== undefined && tailLines < 0) || (limitBytes !== undefined && limitBytes < 1)) throw invalid();
  if (sinceSeconds !== undefined && sinceTimeText !== null) throw invalid();
  if (sinceSeconds !== undefined && sinceSeconds < 1) throw invalid();
  let since: number | undefined;
  if (sinceSeconds !== undefined) since = now - sinceSeconds * 1000;
  if (sinceTime !== undefined && (since === undefined || sinceTime > since)) since = sinceTime;
  const out: LogOptions = { follow: bool(q, 'follow'), previous: bool(q, 'previous'), timestamps: bool(q, 'timestamps') };
  if (tailLines !== undefined) out.tailLines = tailLines;
  if (limitBytes !== undefined) out.limitBytes = limitBytes;
  if (since !== undefined) out.since = since;
  return out;
}
