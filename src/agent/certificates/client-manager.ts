// The node's API credentials, as the kubelet's --kubeconfig, --bootstrap-kubeconfig and
// rotateCertificates manage them. A kubeconfig whose certificate is still good for this node is
// used as it is; otherwise, given a bootstrap kubeconfig (a bootstrap token), the agent asks for
// a certificate through a CSR, saves it and writes its kubeconfig. With rotation on, a new
// certificate is asked for, as the node itself, once 70–90 % of the current one's life has passed
// (a random point, so that nodes started together do not renew together), and the client
// switches to it without a restart.

import { X509Certificate } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../api/log.ts';
import { loadKubeconfig, type ClientConfig } from '../../client/kubeconfig.ts';
import { createClient, type Client } from '../../client/rest.ts';
import { currentName, readCurrent, saveCurrent, usableFor, writeNodeKubeconfig } from './client-credentials.ts';
import { requestNodeClientCertificate, type IssuedCertificate } from './request-certificate.ts';

export interface ClientCertificateOptions {
  kubeconfigPath: string;
  bootstrapKubeconfigPath?: string;
  certDir: string;
  nodeName: string;
  rotate: boolean;
  log: Logger;
  random?: () => number;
  /** how long to wait before asking again after a failed renewal */
  retryMs?: number;
}

/** when to renew a certificate valid from notBefore to notAfter: at 70 % to 90 % of its life */
export function rotationDeadline(notBefore: number, notAfter: number, random: () => number = Math.random): number {
  return notBefore + (notAfter - notBefore) * (0.7 + 0.2 * random());
}

const exists = (p: string) => access(p).then(() => true, () => false);

function pairOf(cfg: ClientConfig): IssuedCertificate | undefined {
  return cfg.cert && cfg.key ? { cert: cfg.cert.toString('utf8'), key: cfg.key.toString('utf8') } : undefined;
}

/** the node's client; closing it ends the rotation too */
export async function startClientCertificates(o: ClientCertificateOptions): Promise<Client> {
  let cfg = (await exists(o.kubeconfigPath)) ? await loadKubeconfig(o.kubeconfigPath) : undefined;
  let pair = cfg ? pairOf(cfg) : undefined;
  const good = cfg && (pair ? usableFor(pair, o.nodeName) : !!cfg.token);
  if (!good) {
    if (!o.bootstrapKubeconfigPath) {
      if (!cfg) throw new Error(`no kubeconfig at ${o.kubeconfigPath} and no --bootstrap-kubeconfig to make one`);
    } else {
      // a certificate kept from an earlier bootstrap, when the kubeconfig was lost
      const kept = await readCurrent(o.certDir);
      const boot = await loadKubeconfig(o.bootstrapKubeconfigPath);
      if (kept && usableFor(kept, o.nodeName)) pair = kept;
      else {
        o.log.info('no usable client certificate: bootstrapping with the bootstrap kubeconfig', { node: o.nodeName });
        const bootClient = createClient(boot, { userAgent: 'orch-agent' });
        try { pair = await requestNodeClientCertificate(bootClient, o.nodeName, o.log); } finally { bootClient.close(); }
        await saveCurrent(o.certDir, pair);
      }
      await writeNodeKubeconfig(o.kubeconfigPath, boot.server, boot.ca?.toString('utf8'), join(o.certDir, currentName));
      cfg = await loadKubeconfig(o.kubeconfigPath);
    }
  }
  const client = createClient(cfg!, { userAgent: 'orch-agent' });
  if (!o.rotate || !pair) return client;

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (current: IssuedCertificate, delayMs?: number) => {
    if (stopped) return;
    const c = new X509Certificate(current.cert);
    const wait = delayMs ?? Math.max(0, rotationDeadline(Date.parse(c.validFrom), Date.parse(c.validTo), o.random) - Date.now());
    timer = setTimeout(() => void rotate(current), Math.min(wait, 2 ** 31 - 1));
    timer.unref();
  };
  const rotate = async (current: IssuedCertificate) => {
    try {
      const next = await requestNodeClientCertificate(client, o.nodeName, o.log);
      const file = await saveCurrent(o.certDir, next);
      await writeNodeKubeconfig(o.kubeconfigPath, cfg!.server, cfg!.ca?.toString('utf8'), file);
      client.setCredentials({ cert: Buffer.from(next.cert), key: Buffer.from(next.key) });
      o.log.info('rotated the client certificate', { notAfter: new X509Certificate(next.cert).validTo });
      schedule(next);
    } catch (err) {
      o.log.warn('client certificate rotation failed; retrying', { err: String(err) });
      schedule(current, o.retryMs ?? 5000);
    }
  };
  schedule(pair);
  return { ...client, close() { stopped = true; if (timer) clearTimeout(timer); client.close(); } };
}
