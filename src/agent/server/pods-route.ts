// The agent's /pods: the pods it runs, as a v1 PodList — what `kubectl get --raw
// /api/v1/nodes/<node>/proxy/pods` shows of a kubelet (its pod manager's pods, static ones
// included, as the agent holds them).

import type { Route } from './https-server.ts';

export function podsRoute(pods: () => unknown[]): Route {
  return (req, res, url) => {
    if (url.pathname !== '/pods' && url.pathname !== '/pods/') { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n'); return; }
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8' }).end('405 method not allowed\n'); return; }
    const list = { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: pods().map(p => ({ kind: 'Pod', apiVersion: 'v1', ...(p as object) })) };
    res.writeHead(200, { 'content-type': 'application/json' }).end(req.method === 'HEAD' ? undefined : JSON.stringify(list));
  };
}
