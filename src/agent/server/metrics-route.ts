// GET /metrics on the agent's endpoint (nodes/metrics, as auth/request-attributes.ts maps it).
// Only the path itself: the kubelet's other /metrics/... paths are separate routes or absent.

import type { Exposition } from '../../api/metrics/exposition.ts';
import type { Route } from './https-server.ts';

export function metricsRoute(metrics: Exposition): Route {
  return async (req, res, url) => {
    if (url.pathname !== '/metrics') { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n'); return; }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' }).end('Method Not Allowed\n'); return; }
    const { contentType, body } = await metrics.scrape();
    res.writeHead(200, { 'content-type': contentType }).end(req.method === 'HEAD' ? undefined : body);
  };
}
