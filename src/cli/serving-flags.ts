// kube-apiserver's serving flags taken by `orch server`: the request timeout, HTTP/2 streams per
// connection and the shutdown's 429s; and two of orch's own for the connection timeouts Go's
// server fixes in code (90 s idle, 32 s for a request's headers), so tests can shorten them.

import type { Flag } from './command.ts';
import { parseDuration } from '../api/duration.ts';
import type { ServerConfig } from '../apiserver/start.ts';

export const servingFlags: Record<string, Flag> = {
  'request-timeout': { type: 'string', default: '1m0s', description: 'requests that are not long-running (watches, exec, logs, proxy are) are answered 504 Timeout after this' },
  'http2-max-streams-per-connection': { type: 'string', default: '1000', description: 'streams a client may open at once on one HTTP/2 connection (0: 100, as kube-apiserver)' },
  'shutdown-send-retry-after': { type: 'boolean', default: false, description: 'once the shutdown delay is over, answer new requests 429 with Retry-After (and close their connections) until the requests in flight are done' },
  'idle-connection-timeout': { type: 'string', default: '1m30s', description: 'an HTTP/1.1 connection between requests, or an HTTP/2 connection with no open stream, is closed after this' },
  'request-header-timeout': { type: 'string', default: '32s', description: 'a request whose headers have not all arrived this long after it began is answered 408 and its connection closed' },
};

export function servingOptions(values: Record<string, string | boolean | undefined>): Pick<ServerConfig, 'requestTimeoutMs' | 'servingLimits' | 'shutdownSendRetryAfter'> {
  const streams = Number(values['http2-max-streams-per-connection'] ?? 1000);
  if (!Number.isInteger(streams) || streams < 0) throw new Error(`invalid --http2-max-streams-per-connection ${JSON.stringify(values['http2-max-streams-per-connection'])}`);
  const positive = (name: string) => {
    const ms = parseDuration(String(values[name]));
    if (!(ms > 0)) throw new Error(`--${name} must be above zero`);
    return ms;
  };
  return {
    requestTimeoutMs: positive('request-timeout'),
    shutdownSendRetryAfter: !!values['shutdown-send-retry-after'],
    servingLimits: {
      http2MaxStreamsPerConnection: streams === 0 ? 100 : streams,
      idleTimeoutMs: positive('idle-connection-timeout'),
      requestHeaderTimeoutMs: positive('request-header-timeout'),
    },
  };
}
