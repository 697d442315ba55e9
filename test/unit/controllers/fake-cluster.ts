// An in-memory stand-in for the API server, just big enough for the namespace controller:
// discovery, namespaces (list, watch, status, finalize) and three namespaced resources with
// different deletion behaviour — configmaps (deletecollection), pods (delete one by one,
// graceful), widgets.example.com (held by finalizers).

import type http from 'node:http';
import { beginWatch, sendJSON, startFakeServer, statusBody, type Call, type FakeServer } from '../client/fake-api-server.ts';

type Obj = { metadata: Record<string, any>; [k: string]: any };

export interface FakeCluster {
  server: FakeServer;
  objects: Map<string, Obj>;
  /** names of the objects in one namespaced collection, e.g. ('doomed', 'api/v1', 'pods') */
  names(ns: string, gv: string, resource: string): string[];
  put(path: string, obj: Obj): void;
  /** a Namespace being deleted, as the API server leaves it after DELETE */
  terminatingNamespace(name: string): Obj;
  close(): Promise<void>;
}

const discovery: Record<string, unknown> = {
  '/apis': { kind: 'APIGroupList', groups: [{ name: 'example.com', versions: [{ groupVersion: 'example.com/v1', version: 'v1' }], preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } }] },
  '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [
    { name: 'namespaces', namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'watch', 'update'] },
    { name: 'namespaces/finalize', namespaced: false, verbs: ['update'] },
    { name: 'configmaps', namespaced: true, verbs: ['create', 'delete', 'deletecollection', 'get', 'list'] },
    { name: 'pods', namespaced: true, verbs: ['create', 'delete', 'get', 'list'] },
    { name: 'pods/status', namespaced: true, verbs: ['get', 'update'] },
    { name: 'bindings', namespaced: true, verbs: ['create'] },
  ] },
  '/apis/example.com/v1': { kind: 'APIResourceList', groupVersion: 'example.com/v1', resources: [
    { name: 'widgets', namespaced: true, verbs: ['delete', 'deletecollection', 'get', 'list'] },
  ] },
};

export async function startFakeCluster(opts: { podGraceMs?: number } = {}): Promise<FakeCluster> {
  const objects = new Map<string, Obj>();
  const nsWatches = new Set<ReturnType<typeof beginWatch>>();
  let rv = 100;
  const bump = (o: Obj) => { o.metadata.resourceVersion = String(++rv); return o; };
  const notify = (type: string, o: Obj) => { for (const w of nsWatches) w.event(type, o); };

  const removeOrMark = (path: string, resource: string) => {
    const o = objects.get(path);
    if (!o) return false;
    if (resource === 'pods' && !o.metadata.deletionTimestamp) {
      // graceful: the kubelet would stop the containers, then the pod goes
      const grace = opts.podGraceMs ?? 300;
      o.metadata.deletionTimestamp = new Date(Date.now() + grace).toISOString();
      o.metadata.deletionGracePeriodSeconds = Math.ceil(grace / 1000);
      bump(o);
      setTimeout(() => objects.delete(path), grace).unref();
    } else if (o.metadata.finalizers?.length) {
      o.metadata.deletionTimestamp ??= new Date().toISOString();
      bump(o);
    } else {
      objects.delete(path);
    }
    return true;
  };

  const route = (call: Call, res: http.ServerResponse) => {
    const p = call.path;
    if (call.method === 'GET' && discovery[p]) return sendJSON(res, 200, discovery[p]);
    if (p === '/api/v1/namespaces' && call.method === 'GET') {
      const items = [...objects.entries()].filter(([k]) => /^\/api\/v1\/namespaces\/[^/]+$/.test(k)).map(([, o]) => o);
      if (!call.query.get('watch')) return sendJSON(res, 200, { kind: 'NamespaceList', metadata: { resourceVersion: String(rv) }, items });
      const w = beginWatch(res);
      nsWatches.add(w);
      res.on('close', () => nsWatches.delete(w));
      return;
    }
    let m = /^\/api\/v1\/namespaces\/([^/]+)(?:\/(status|finalize))?$/.exec(p);
    if (m) {
      const key = `/api/v1/namespaces/${m[1]}`;
      const ns = objects.get(key);
      if (!ns) return sendJSON(res, 404, statusBody(404, 'NotFound', `namespaces "${m[1]}" not found`));
      if (call.method === 'GET') return sendJSON(res, 200, ns);
      if (call.method === 'DELETE' && !m[2]) {
        ns.metadata.deletionTimestamp ??= new Date().toISOString();
        ns.status = { ...ns.status, phase: 'Terminating' };
        notify('MODIFIED', bump(ns));
        return sendJSON(res, 200, ns);
      }
      if (call.method !== 'PUT') return sendJSON(res, 405, statusBody(405, 'MethodNotAllowed', 'no'));
      if (call.body.metadata.resourceVersion !== ns.metadata.resourceVersion) return sendJSON(res, 409, statusBody(409, 'Conflict', 'the object has been modified'));
      if (m[2] === 'status') ns.status = call.body.status;
      else if (m[2] === 'finalize') ns.spec = { ...ns.spec, finalizers: call.body.spec?.finalizers ?? [] };
      bump(ns);
      if (m[2] === 'finalize' && ns.metadata.deletionTimestamp && ns.spec.finalizers.length === 0) {
        objects.delete(key);
        notify('DELETED', ns);
      } else {
        notify('MODIFIED', ns);
      }
      return sendJSON(res, 200, ns);
    }
    m = /^\/(api\/v1|apis\/example\.com\/v1)\/namespaces\/([^/]+)\/([a-z]+)(?:\/([^/]+))?$/.exec(p);
    if (m) {
      const [, gv, ns, resource, name] = m;
      const prefix = `/${gv}/namespaces/${ns}/${resource}/`;
      if (name) {
        if (call.method === 'DELETE') return removeOrMark(prefix + name, resource!) ? sendJSON(res, 200, { kind: 'Status', status: 'Success' }) : sendJSON(res, 404, statusBody(404, 'NotFound', `${resource} "${name}" not found`));
      } else if (call.method === 'GET') {
        return sendJSON(res, 200, { metadata: { resourceVersion: String(rv) }, items: [...objects.entries()].filter(([k]) => k.startsWith(prefix)).map(([, o]) => o) });
      } else if (call.method === 'DELETE' && resource !== 'pods') {
        for (const k of [...objects.keys()]) if (k.startsWith(prefix)) removeOrMark(k, resource!);
        return sendJSON(res, 200, { metadata: {}, items: [] });
      }
    }
    sendJSON(res, 405, statusBody(405, 'MethodNotAllowed', `${call.method} ${p} is not supported`));
  };

  const server = await startFakeServer(route);
  return {
    server,
    objects,
    names: (ns, gv, resource) => [...objects.keys()].filter(k => k.startsWith(`/${gv}/namespaces/${ns}/${resource}/`)).map(k => k.split('/').pop()!),
    put(path, obj) { objects.set(path, bump(obj)); },
    terminatingNamespace: name => ({
      metadata: { name, deletionTimestamp: new Date().toISOString(), uid: `uid-${name}` },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    }),
    close: () => server.close(),
  };
}
