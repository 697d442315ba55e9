// The call itself: the AdmissionReview POSTed over HTTPS to the webhook, its certificate
// checked against the configuration's caBundle (the system roots when there is none), with the
// webhook's timeout. Failures are worded as Go's client words them inside kube-apiserver's
// message (`Post "https://host/path?timeout=10s": dial tcp 127.0.0.1:1: connect: connection
// refused`), because operators and tests match those words.

import { request as httpsRequest, type Agent } from 'node:https';
import { goDialError, joinHostPort } from '../../../proxy/target.ts';
import type { WebhookClientConfig } from './hook.ts';
import { ResolveError, type ServiceResolver } from './service-resolver.ts';

export interface CallResult { status: number; body: Buffer; contentType?: string }

/** the client could not be made at all (kube-apiserver: `could not get REST client: ...`) */
export class ClientConfigError extends Error {}

/** the URL kube-apiserver names: the service's DNS name, or the configured URL, with the timeout */
export function webhookUrl(cfg: WebhookClientConfig, timeoutSeconds: number): URL {
  let u: URL;
  if (cfg.url) u = new URL(cfg.url);
  else {
    const s = cfg.service!;
    u = new URL(`https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? ''}`);
  }
  u.searchParams.set('timeout', `${timeoutSeconds}s`);
  return u;
}

function goTlsError(err: NodeJS.ErrnoException & { cert?: { subjectaltname?: string } }, host: string): string | undefined {
  const unknownAuthority = ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT'];
  if (err.code && unknownAuthority.includes(err.code)) return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (err.code === 'CERT_HAS_EXPIRED' || err.code === 'CERT_NOT_YET_VALID') return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (err.cert?.subjectaltname ?? '').split(', ').map(n => n.replace(/^(DNS|IP Address):/, '')).filter(Boolean);
    return names.length
      ? `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${host}`
      : `tls: failed to verify certificate: x509: certificate is not valid for any names, but wanted to match ${host}`;
  }
  return undefined;
}

/**
 * POSTs `body`; resolves with the answer, rejects with the reason after `failed to call webhook: `.
 * `agent`: connections kept open between calls (the TLS handshake is most of a call's time)
 */
export async function postReview(cfg: WebhookClientConfig, timeoutSeconds: number, body: string, resolve: ServiceResolver, agent?: Agent): Promise<CallResult> {
  const url = webhookUrl(cfg, timeoutSeconds);
  const shown = `Post "${url.href}"`;
  const deadline = AbortSignal.timeout(timeoutSeconds * 1000);
  let host = url.hostname.replace(/^\[|\]$/g, '');
  let port = Number(url.port || 443);
  const servername = host;
  if (!cfg.url && cfg.service) {
    try {
      ({ host, port } = await resolve(cfg.service.namespace, cfg.service.name, cfg.service.port ?? 443));
    } catch (err) {
      if (err instanceof ResolveError) throw new Error(`${shown}: ${err.message}`);
      throw err;
    }
  }
  const ca = cfg.caBundle ? Buffer.from(cfg.caBundle, 'base64') : undefined;
  // Go reads the bundle before any connection, and refuses one without a certificate in it
  if (ca && !ca.toString('latin1').includes('-----BEGIN CERTIFICATE-----')) throw new ClientConfigError('unable to load root certificates: unable to parse bytes as PEM block');
  return new Promise<CallResult>((done, fail) => {
    const req = httpsRequest({
      host, port, method: 'POST', path: url.pathname + url.search, signal: deadline, ...(agent ? { agent } : {}),
      servername: /^[\d.]+$|:/.test(servername) ? undefined : servername,
      ...(ca ? { ca } : {}),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': Buffer.byteLength(body), Host: url.host },
    }, res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), contentType: res.headers['content-type'] }));
      res.on('error', err => fail(deadline.aborted ? new Error(`${shown}: context deadline exceeded`) : new Error(`${shown}: ${err.message}`)));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (deadline.aborted) { fail(new Error(`${shown}: context deadline exceeded`)); return; }
      const tls = goTlsError(err, servername);
      if (tls) { fail(new Error(`${shown}: ${tls}`)); return; }
      // Go names the address it dialled: the resolved IP, not the name in the URL
      const dialled = (err as { address?: string }).address ?? host;
      fail(new Error(`${shown}: ${goDialError(err, joinHostPort(dialled, String((err as { port?: number }).port ?? port)))}`));
    });
    req.end(body);
  });
}

const genericMessages: Record<number, string> = {
  400: 'the server rejected our request for an unknown reason',
  401: 'the server has asked for the client to provide credentials',
  404: 'the server could not find the requested resource',
  405: 'the server does not allow this method on the requested resource',
  422: 'the server rejected our request due to an error in our request',
  429: 'the server has received too many requests and has asked us to try again later',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
};

/**
 * The answer's body as an AdmissionReview; a non-2xx answer as client-go reports it (the
 * Status the webhook sent, else the generic words for its code), thrown as the call's reason.
 */
export function decodeAnswer(r: CallResult): unknown {
  const text = r.body.toString('utf8');
  let parsed: unknown;
  let parseError: string | undefined;
  try { parsed = JSON.parse(text); } catch (err) { parseError = (err as Error).message; }
  if (r.status >= 200 && r.status < 300) {
    if (!r.body.length) throw new Error(`0-length response with status code: ${r.status} and content type: ${r.contentType ?? ''}`);
    if (parseError !== undefined) throw new Error(`couldn't get version/kind; json parse error: ${parseError}`);
    return parsed;
  }
  const status = parsed as { kind?: string; message?: string } | undefined;
  if (status?.kind === 'Status' && status.message) throw new Error(status.message);
  const words = genericMessages[r.status];
  if (r.status === 403) throw new Error(text.trim());
  if (words) throw new Error(words);
  if (r.status >= 500) throw new Error(`an error on the server (${JSON.stringify(text.trim() || 'unknown')}) has prevented the request from succeeding`);
  throw new Error(`the server responded with the status code ${r.status} but did not return more information`);
}
