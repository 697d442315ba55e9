// The agent's serving certificate through the certificates API, as the kubelet's
// serverTLSBootstrap gets it: a CSR to kubernetes.io/kubelet-serving for what serving-template.ts
// says the node must be named, asked as the node itself. Until one is issued (or while the one
// kept has expired) there is no certificate at all: the endpoint refuses handshakes, as the
// kubelet does, rather than serving a certificate nobody can verify. The certificate is renewed at
// a random point between 70 % and 90 % of its life, and at once when the node's names change (a
// request for names no longer wanted is dropped); failures are retried after 2, 4, ... 32 s.
// Kept in <cert-dir>/kubelet-server-current.pem, so a restart serves at once.

import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { Logger } from '../../api/log.ts';
import type { Client } from '../../client/rest.ts';
import { readCurrent, saveCurrent } from './client-credentials.ts';
import { rotationDeadline } from './client-manager.ts';
import { requestCertificate, type IssuedCertificate } from './request-certificate.ts';
import { kubeletServingSigner, sameTemplate, satisfiesTemplate, servingTemplate, servingUsages, type NodeAddress, type ServingTemplate } from './serving-template.ts';

export interface ServingCertificateOptions {
  client: Client;
  nodeName: string;
  /** the node's addresses now */
  addresses: () => NodeAddress[];
  certDir: string;
  /** tlsCertFile/tlsPrivateKeyFile, used until the store has a certificate of its own */
  initial?: IssuedCertificate;
  /** told of each new certificate */
  onCertificate?: (pair: IssuedCertificate) => void;
  log: Logger;
  random?: () => number;
  /** how often the node's names are compared with the certificate's; default 1 s, as the kubelet */
  checkMs?: number;
  now?: () => number;
}

export interface ServingCertificates {
  /** the certificate to serve with, when there is a valid one */
  current(): IssuedCertificate | undefined;
  /** resolves once there is one */
  ready: Promise<void>;
  stop(): void;
}

function valid(pair: IssuedCertificate | undefined, now: number): pair is IssuedCertificate {
  if (!pair) return false;
  try {
    const c = new X509Certificate(pair.cert);
    return c.checkPrivateKey(createPrivateKey(pair.key)) && Date.parse(c.validTo) > now;
  } catch {
    return false;
  }
}

export async function startServingCertificates(o: ServingCertificateOptions): Promise<ServingCertificates> {
  const now = o.now ?? Date.now;
  const kept = await readCurrent(o.certDir, 'kubelet-server');
  let cert = valid(kept, now()) ? kept : valid(o.initial, now()) ? o.initial : undefined;
  let deadline = 0;
  const plan = (pair: IssuedCertificate) => {
    const c = new X509Certificate(pair.cert);
    deadline = rotationDeadline(Date.parse(c.validFrom), Date.parse(c.validTo), o.random);
  };
  if (cert) plan(cert);
  let becameReady!: () => void;
  const ready = new Promise<void>(r => { becameReady = r; });
  if (cert) becameReady();

  let stopped = false;
  let asking: { template: ServingTemplate; abort: AbortController } | undefined;
  let failures = 0;
  let retryAt = 0;

  const tick = () => {
    if (stopped) return;
    const template = servingTemplate(o.nodeName, o.addresses());
    if (asking) {
      // the names asked for are no longer the node's: stop waiting, ask again on the next tick
      if (!sameTemplate(template, asking.template)) asking.abort.abort();
      return;
    }
    if (!template || now() < retryAt) return;
    const current = valid(cert, now()) ? cert : undefined;
    if (current && satisfiesTemplate(current.cert, template) && now() < deadline) return;
    const abort = new AbortController();
    asking = { template, abort };
    o.log.info(current ? 'renewing the serving certificate' : 'asking for a serving certificate', { dnsNames: template.dnsNames, ips: template.ips });
    requestCertificate(o.client, { ...template, signerName: kubeletServingSigner, usages: servingUsages, namePrefix: 'csr-' }, o.log, { signal: abort.signal })
      .then(async pair => {
        await saveCurrent(o.certDir, pair, new Date(now()), 'kubelet-server');
        cert = pair;
        plan(pair);
        failures = 0;
        o.onCertificate?.(pair);
        becameReady();
        o.log.info('serving with the new certificate', { notAfter: new X509Certificate(pair.cert).validTo });
      }, err => {
        failures++;
        retryAt = now() + Math.min(2000 * 2 ** (failures - 1), 32_000);
        o.log.warn('certificate request was not signed', { signer: kubeletServingSigner, err: String(err) });
      })
      .finally(() => { asking = undefined; });
  };
  const timer = setInterval(tick, o.checkMs ?? 1000);
  timer.unref();
  tick();
  return {
    current: () => (valid(cert, now()) ? cert : undefined),
    ready,
    stop() { stopped = true; clearInterval(timer); asking?.abort.abort(); },
  };
}
