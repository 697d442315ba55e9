// GET /containerLogs/<namespace>/<pod>/<container> on the agent's endpoint: the API server's
// pods/log proxies here. Errors are plain text with the status, as the kubelet answers.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { LogOptionsError, parseLogOptions } from './log-options.ts';
import { streamLogs } from './stream-logs.ts';

export type LogLocation = { path: string; running: () => boolean } | { error: string; code: 400 | 404 };

export type LogLocator = (namespace: string, pod: string, container: string, previous: boolean) => Promise<LogLocation>;

function fail(res: ServerResponse, code: number, message: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}

export function containerLogsRoute(locate: LogLocator, now: () => number = Date.now) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method !== 'GET') return fail(res, 405, 'method not allowed');
    const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
    if (parts.length !== 3 || parts.some(p => !p)) return fail(res, 400, 'expected /containerLogs/<namespace>/<pod>/<container>');
    let opts;
    try {
      opts = parseLogOptions(url.searchParams, now());
    } catch (err) {
      if (err instanceof LogOptionsError) return fail(res, err.code, err.message);
      throw err;
    }
    const where = await locate(parts[0]!, parts[1]!, parts[2]!, opts.previous);
    if ('error' in where) return fail(res, where.code, where.error);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
    let closed = false;
    res.on('close', () => { closed = true; });
    await streamLogs(where.path, opts, where.running, { out: res, closed: () => closed || res.destroyed });
    res.end();
  };
}
