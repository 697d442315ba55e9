// kube-controller-manager's --use-service-account-credentials: each controller acts on the API
// as its own service account in kube-system (made if missing), with a token from the TokenRequest
// API renewed at 80 % of its life, so RBAC holds it to its system:controller:<name> role. Lists
// and watches go as the manager itself, as kube-controller-manager's shared informers do (its
// role lists and watches everything); gets and writes go as the controller.

import type { Logger } from '../api/log.ts';
import { isNotFound } from '../client/api-error.ts';
import type { ClientConfig } from '../client/kubeconfig.ts';
import { createClient, type Client } from '../client/rest.ts';

const TOKEN_SECONDS = 3600;
const RETRY_MS = 1000;

interface TokenRequestStatus { status?: { token?: string; expirationTimestamp?: string } }

/** a token for kube-system/<name>, the account made first when it does not exist */
async function requestToken(root: Client, name: string): Promise<{ token: string; expiresAt: number }> {
  const sa = `/api/v1/namespaces/kube-system/serviceaccounts/${encodeURIComponent(name)}`;
  try {
    await root.get(sa);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await root.create('/api/v1/namespaces/kube-system/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'kube-system' } })
      .catch(e => { if ((e as { code?: number }).code !== 409) throw e; });
  }
  const tr = await root.create<TokenRequestStatus>(`${sa}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: TOKEN_SECONDS } });
  const token = tr.status?.token;
  if (!token) throw new Error(`no token for service account kube-system/${name}`);
  const expiresAt = Date.parse(tr.status?.expirationTimestamp ?? '') || Date.now() + TOKEN_SECONDS * 1000;
  return { token, expiresAt };
}

/**
 * A client acting as kube-system/<name>. It is usable at once: calls wait for the first token,
 * which is asked for until it comes; later tokens replace it before it expires.
 */
export function serviceAccountClient(root: Client, base: ClientConfig, name: string, log: Logger): Client {
  const inner = createClient({ server: base.server, ca: base.ca, tlsServerName: base.tlsServerName, insecureSkipTLSVerify: base.insecureSkipTLSVerify }, { userAgent: `orch-controller-manager/${name}` });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const fetchOnce = async (): Promise<void> => {
    for (;;) {
      if (stopped) return;
      try {
        const { token, expiresAt } = await requestToken(root, name);
        inner.setCredentials({ token });
        const renewIn = Math.max(RETRY_MS, (expiresAt - Date.now()) * 0.8);
        timer = setTimeout(() => { void fetchOnce(); }, renewIn);
        timer.unref();
        return;
      } catch (err) {
        log.warn('cannot get a token for the controller\'s service account; retrying', { serviceAccount: `kube-system/${name}`, err: String(err) });
        await new Promise(r => setTimeout(r, RETRY_MS));
      }
    }
  };
  const ready = fetchOnce();
  const after = <A extends unknown[], R>(f: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => { await ready; return f(...a); };
  return {
    request: after(inner.request),
    get: after(inner.get),
    list: (path, query) => root.list(path, query),
    create: after(inner.create),
    update: after(inner.update),
    patch: after(inner.patch),
    delete: after(inner.delete),
    deleteCollection: after(inner.deleteCollection),
    watch: (path, query, onEvent, onError, accept) => root.watch(path, query, onEvent, onError, accept),
    setCredentials: c => inner.setCredentials(c),
    close() { stopped = true; if (timer) clearTimeout(timer); inner.close(); },
  };
}
