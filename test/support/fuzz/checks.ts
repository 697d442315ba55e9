// What must hold of every fuzzed request: a 2xx, or a 4xx whose body is a Kubernetes Status in
// whatever representation was negotiated (JSON, YAML, protobuf, CBOR), with no JavaScript error
// text; and a rejected write that changed nothing in the store but what Kubernetes itself writes
// for one (a ResourceQuota charged by admission before storage refused the object).

import { parse as parseYaml } from 'yaml';
import { readFileSync } from 'node:fs';
import { decodeCbor } from '../../../src/codec/cbor.ts';
import { decodeProtobufObject } from '../../../src/codec/protobuf/envelope.ts';
import type { FuzzClient, FuzzReply } from './client.ts';
import type { FuzzRequest } from './requests.ts';

const jsErrorText = /TypeError|SyntaxError|RangeError|ReferenceError|Cannot read propert|Maximum call stack|is not a function|is not iterable|\(undefined\)|\[object Object\]/;

export function describe(r: FuzzRequest, reply?: FuzzReply): string {
  const body = r.body ? (r.body.length > 400 ? `${r.body.subarray(0, 400).toString('latin1')}… (${r.body.length} bytes)` : r.body.toString('latin1')) : '';
  return `${r.transport} ${r.method} ${r.path}\n  headers ${JSON.stringify(r.headers)}\n  body ${JSON.stringify(body)}` +
    (reply ? `\n  reply ${reply.status} ${JSON.stringify(reply.body.subarray(0, 600).toString('latin1'))}` : '');
}

/** the reply's body as an object, in the representation its content type names */
function decoded(reply: FuzzReply): Record<string, unknown> | undefined {
  const ct = String(reply.headers['content-type'] ?? '');
  try {
    if (ct.includes('json')) return JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>;
    if (ct.includes('yaml')) return parseYaml(reply.body.toString('utf8')) as Record<string, unknown>;
    if (ct.includes('protobuf')) return decodeProtobufObject(reply.body).object;
    if (ct.includes('cbor')) return decodeCbor(reply.body) as Record<string, unknown>;
  } catch { return undefined; }
  return undefined;
}

/**
 * A proxy subresource with nowhere to go (a service without endpoints, a pod without an address)
 * is Kubernetes' one 5xx for a well-formed request: 503 ServiceUnavailable, as a Status.
 */
const proxyPath = /^\/api\/v1\/(namespaces\/[^/]+\/(services|pods)|nodes)\/[^/]+\/proxy(\/|\?|$)/;

/** what a reply must be; a message naming what is wrong, or undefined */
export function replyProblem(r: FuzzRequest, reply: FuzzReply): string | undefined {
  if (reply.status >= 500 && !(reply.status === 503 && proxyPath.test(r.path) && decoded(reply)?.reason === 'ServiceUnavailable')) return `a ${reply.status}`;
  if (reply.status < 200 || (reply.status >= 300 && reply.status < 400)) return `status ${reply.status}`;
  if (jsErrorText.test(reply.body.toString('latin1'))) return 'JavaScript error text in the reply';
  // the API's paths answer a Status; others (OpenAPI, health, metrics) answer text as Kubernetes' do
  if (reply.status >= 400 && r.method !== 'HEAD' && /^\/apis?(\/|\?|$)/.test(r.path)) {
    // a path nothing serves: Go's http.NotFound, as kube-apiserver's not-found handler answers it
    if (reply.status === 404 && reply.body.toString('latin1') === '404 page not found\n' && String(reply.headers['content-type']).startsWith('text/plain')) return undefined;
    const s = decoded(reply);
    if (!s) return `a ${reply.status} whose body is not a Status (${String(reply.headers['content-type'] ?? '')})`;
    if (s.kind !== 'Status' || s.status !== 'Failure' || Number(s.code) !== reply.status || typeof s.reason !== 'string' || !s.reason) return `a ${reply.status} with a malformed Status`;
  }
  return undefined;
}

/** the newest revision of the whole store (a list's resourceVersion, read consistently) */
export async function storeRevision(client: FuzzClient): Promise<number> {
  const reply = await client.send({ transport: 'h2', method: 'GET', path: '/api/v1/namespaces?limit=1', headers: {} });
  return Number((JSON.parse(reply.body.toString('utf8')) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
}

/**
 * Whether every revision after `before` up to `after` is a ResourceQuota's: Kubernetes' quota
 * admission charges the quota before storage, so a create refused there (409 AlreadyExists)
 * leaves the charge, as it does in Kubernetes. Each change to the store is one revision.
 */
export async function onlyQuotaCharges(client: FuzzClient, before: number, after: number): Promise<boolean> {
  const events = await client.watchEvents(`/api/v1/resourcequotas?watch=1&resourceVersion=${before}&timeoutSeconds=2`, after);
  const charged = new Set(events.map(e => e.rv).filter(rv => rv > before && rv <= after));
  return charged.size === after - before;
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** CPU seconds the process has used (user and system), for the rates the soak prints */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function healthy(client: FuzzClient): Promise<boolean> {
  const reply = await client.send({ transport: 'h2', method: 'GET', path: '/healthz', headers: {} }).catch(() => undefined);
  return reply?.status === 200;
}
