// The agent's stats endpoints: /stats/summary (JSON, the Summary API) and /metrics/resource
// (Prometheus text). A runtime that fails its stats calls still leaves the node's own figures:
// /metrics/resource then says scrape_error 1, as the kubelet does.

import type { Route } from '../server/https-server.ts';
import type { StatsCollector } from './collector.ts';
import { resourceMetrics } from './resource-metrics.ts';

export function summaryRoute(stats: StatsCollector): Route {
  return async (req, res, url) => {
    if (req.method !== 'GET') { res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8' }).end('405 method not allowed\n'); return; }
    if (url.pathname !== '/stats/summary') { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n'); return; }
    const { summary, runtimeError } = await stats.collect();
    if (runtimeError) throw new Error(`failed to get pod stats: ${runtimeError}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(summary, null, 2));
  };
}

export function resourceMetricsRoute(stats: StatsCollector): Route {
  return async (_req, res, url) => {
    if (url.pathname !== '/metrics/resource') { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n'); return; }
    const { summary, runtimeError } = await stats.collect();
    const text = resourceMetrics(summary, runtimeError !== undefined);
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(text);
  };
}
