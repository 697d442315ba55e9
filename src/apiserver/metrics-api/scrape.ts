// A node agent's /stats/summary, fetched with the API server's client certificate. Answers are
// kept for a few seconds, so that kubectl top's requests (and several clients at once) cost one
// scrape per node; a node that does not answer in time has no metrics.

import https from 'node:https';
import { nodeTlsOptions, type NodeClientTls } from '../node-tls.ts';

/** the parts of the agent's Summary that metrics are made from */
export interface ScrapedSummary {
  node: { cpu?: { time: string; usageNanoCores?: number }; memory?: { time: string; workingSetBytes?: number } };
  pods: Array<{
    podRef: { name: string; namespace: string; uid: string };
    containers: Array<{ name: string; cpu?: { time: string; usageNanoCores?: number }; memory?: { time: string; workingSetBytes?: number } }>;
  }>;
}

export type SummaryFetcher = (url: string) => Promise<ScrapedSummary>;

export function httpsSummaryFetcher(tls: NodeClientTls, timeoutMs = 5000): SummaryFetcher {
  return url => new Promise((resolve, reject) => {
    const req = https.request(url, { method: 'GET', ...nodeTlsOptions(tls), timeout: timeoutMs, headers: { accept: 'application/json' } }, res => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode} ${body.trim()}`));
        try { resolve(JSON.parse(body) as ScrapedSummary); } catch (err) { reject(err); }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** one scrape per URL at a time, its answer (or failure) reused for `ttlMs` */
export function cachedFetcher(fetch: SummaryFetcher, ttlMs = 3000, now: () => number = Date.now): SummaryFetcher {
  const cache = new Map<string, { at: number; value: Promise<ScrapedSummary> }>();
  return url => {
    const hit = cache.get(url);
    if (hit && now() - hit.at < ttlMs) return hit.value;
    const value = fetch(url);
    cache.set(url, { at: now(), value });
    for (const [k, v] of cache) if (now() - v.at >= ttlMs && k !== url) cache.delete(k);
    return value;
  };
}
