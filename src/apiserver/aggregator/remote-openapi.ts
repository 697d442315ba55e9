// The OpenAPI documents of extension API servers, downloaded as kube-aggregator's OpenAPI
// controllers download them: /openapi/v2 and, through /openapi/v3, the document of the
// APIService's own group-version, asked as system:aggregator over the front-proxy identity.
// An available APIService is fetched when it appears, when its spec changes and once a minute;
// a failed download keeps the last good documents; an APIService that is gone or unavailable
// drops out, so the served OpenAPI never waits for nor breaks on an extension.

import type { Logger } from '../../api/log.ts';
import type { Catalog } from '../../schema/types.ts';
import type { Registry } from '../../registry/registry.ts';
import type { CertAndKey } from '../../pki/certs.ts';
import type { RemoteOpenAPI } from '../openapi-documents.ts';
import { backendGet, type BackendTls } from './backend-request.ts';
import { endpointUrl, pickEndpoint, readyEndpoints } from './endpoint-pick.ts';
import { readServiceState } from './service-state.ts';
import { userHeader } from './identity.ts';
import type { RemoteAPIService } from './controller.ts';

type Json = Record<string, unknown>;

export interface Downloaded { v2?: Json; v3?: { path: string; body: string } }

interface Entry extends Downloaded { specKey: string; at: number; priority: [number, number, string] }

const resyncMs = 60_000;
const timeoutMs = 10_000;

/** 'apis/<group>/<version>', or 'api/<version>' for the core group */
export const remoteGvPath = (group: string, version: string) => (group ? `apis/${group}/${version}` : `api/${version}`);

/**
 * One extension's documents. A part it does not serve (404, 406) is left out; any other failure
 * fails the download, in kube-aggregator's words, so that the last good documents stay.
 */
export async function downloadOpenAPI(base: string, api: RemoteAPIService, tls: BackendTls): Promise<Downloaded> {
  const headers = { [userHeader]: 'system:aggregator', accept: 'application/json' };
  const getJson = async (path: string): Promise<{ body: string; json: Json } | undefined> => {
    const res = await backendGet(base + path, headers, tls, timeoutMs);
    if (res.status === 404 || res.status === 406) return undefined;
    if (res.status !== 200) throw new Error(`failed to retrieve openAPI spec, http error: ResponseCode: ${res.status}, Body: ${res.body.toString('utf8')}`);
    const body = res.body.toString('utf8');
    try { return { body, json: JSON.parse(body) as Json }; } catch (err) { throw new Error(`failed to parse openAPI spec from ${path}: ${(err as Error).message}`); }
  };
  const out: Downloaded = {};
  const v2 = await getJson('/openapi/v2');
  if (v2 && typeof v2.json.swagger === 'string') out.v2 = v2.json;
  const index = await getJson('/openapi/v3');
  const path = remoteGvPath(api.group, api.version);
  const entry = (index?.json.paths as Record<string, { serverRelativeURL?: string }> | undefined)?.[path];
  if (entry?.serverRelativeURL?.startsWith('/')) {
    const doc = await getJson(entry.serverRelativeURL);
    if (doc && typeof doc.json.openapi === 'string') out.v3 = { path, body: doc.body };
  }
  return out;
}

export class RemoteOpenAPISpecs implements RemoteOpenAPI {
  private readonly entries = new Map<string, Entry>();
  private gen = 0;
  private readonly o: { store: Registry; catalog: Catalog; client: CertAndKey; log: Logger; now?: () => number };
  constructor(o: { store: Registry; catalog: Catalog; client: CertAndKey; log: Logger; now?: () => number }) { this.o = o; }

  generation(): number { return this.gen; }

  v2Documents(): Json[] {
    // the highest group priority first, then version priority, then name, as kube-aggregator orders them
    const sorted = [...this.entries.values()].sort((a, b) => b.priority[0] - a.priority[0] || b.priority[1] - a.priority[1] || (a.priority[2] < b.priority[2] ? -1 : 1));
    return sorted.flatMap(e => (e.v2 ? [e.v2] : []));
  }

  v3Document(path: string): { body: string } | undefined {
    for (const e of this.entries.values()) if (e.v3?.path === path) return e.v3;
    return undefined;
  }

  v3Paths(): string[] {
    return [...this.entries.values()].flatMap(e => (e.v3 ? [e.v3.path] : []));
  }

  /** brings the documents in line with the remote APIServices as the availability controller sees them */
  async refresh(remote: Iterable<RemoteAPIService>): Promise<void> {
    const now = (this.o.now ?? Date.now)();
    const wanted = new Map<string, RemoteAPIService>();
    for (const api of remote) if (api.available) wanted.set(api.name, api);
    for (const name of [...this.entries.keys()]) {
      if (!wanted.has(name)) { this.entries.delete(name); this.gen++; }
    }
    await Promise.all([...wanted.values()].map(async api => {
      const specKey = JSON.stringify(api.spec);
      const had = this.entries.get(api.name);
      if (had && had.specKey === specKey && now - had.at < resyncMs) return;
      try {
        const state = await readServiceState(this.o.store, this.o.catalog, api.ref);
        const endpoint = state.service ? pickEndpoint(readyEndpoints(api.ref, state.service, state.endpoints, state.slices)) : undefined;
        if (!endpoint) throw new Error(`no endpoints available for service "${api.ref.name}"`);
        const got = await downloadOpenAPI(endpointUrl(endpoint, ''), api, { ref: api.ref, spec: api.spec, client: this.o.client });
        const changed = !had || JSON.stringify(had.v2) !== JSON.stringify(got.v2) || had.v3?.body !== got.v3?.body;
        this.entries.set(api.name, { ...got, specKey, at: now, priority: [api.groupPriorityMinimum, api.versionPriority, api.name] });
        if (changed) this.gen++;
      } catch (err) {
        this.o.log.warn('apiservice openapi download failed', { name: api.name, err: (err as Error).message });
        // the last good documents stay (none at first); tried again at the next resync or spec change
        this.entries.set(api.name, { ...(had ?? {}), specKey, at: now, priority: [api.groupPriorityMinimum, api.versionPriority, api.name] });
      }
    }));
  }
}
