// The server factory: opens storage, makes or reads the TLS material, builds the catalog and
// the generic store, seeds the system objects and starts listening. cli/ calls this; tests too.

import type { FeatureGates } from '../api/feature-gates.ts';
import { hostname, networkInterfaces } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../api/log.ts';
import { createCatalog } from '../schema/catalog.ts';
import { extensibleCatalog } from '../schema/extensible-catalog.ts';
import { startCrdController } from './crd/controller.ts';
import { conversionReviewCaller } from './crd/conversion-webhook.ts';
import { CustomResourceConversions } from '../registry/apiextensions/conversion/converter.ts';
import { endpointSliceResolver } from './admission/plugins/webhooks/service-resolver.ts';
import { openStorage, type EtcdFlags } from '../storage/backends.ts';
import { startCompactor } from '../storage/compactor.ts';
import { defaultEventTtlMs, startEventTtl } from './event-ttl.ts';
import type { EncryptionFlags } from '../storage/encryption/at-rest.ts';
import { createCacher } from '../storage/cacher/cacher.ts';
import { instrumentStorage } from '../storage/instrumented.ts';
import type { SqliteStorage } from '../storage/sqlite/store.ts';
import { createApiServerMetrics } from './metrics/apiserver-metrics.ts';
import { preloadPromClient } from '../api/metrics/exposition.ts';
import { GenericStore } from '../registry/store.ts';
import { strategyFor } from '../registry/strategies.ts';
import { storageIndexers } from '../registry/indexes.ts';
import { ensurePki, type CertAndKey } from './cluster-certs.ts';
import { securePrivateDirs } from '../pki/private-files.ts';
import { writeKubeconfig } from './kubeconfig.ts';
import { createHealth } from './health.ts';
import { createApiServer } from './server.ts';
import { defaultRequestTimeoutMs } from './request-timeout.ts';
import { buildAuditor, type AuditFlags } from './audit/options.ts';
import { buildAuthorization } from './authz/modes.ts';
import { setupAuthentication, type AuthenticationFlags } from './authn/setup.ts';
import { enabledAdmissionPlugins, type AdmissionFlags } from './admission/options.ts';
import { buildAdmissionChain } from './admission/chain.ts';
import { readAdmissionConfig } from './admission/config-file.ts';
import { ensureDefaultStorageClass, ensureKubernetesEndpoints, ensureKubernetesService, ensureSystemNamespaces } from './bootstrap.ts';
import { ensureSystemPriorityClasses } from './bootstrap-priority-classes.ts';
import { ensureFlowControlBootstrapAtStart, startFlowControlConfigProducer } from './flowcontrol/config-producer.ts';
import { createFlowClassifier } from './flowcontrol/classifier.ts';
import { createAggregator } from './aggregator/aggregator.ts';
import { ensureExtensionAuthConfigMap, ensureFrontProxyPki, extensionAuthData } from './aggregator/front-proxy.ts';
import { ensureLocalAPIServices } from './aggregator/local-apiservices.ts';
import { startCrdAPIServiceRegistration } from './aggregator/crd-apiservices.ts';
import type { FlowClassifier } from './flowcontrol/types.ts';
import { objectCounter } from './flowcontrol/object-count.ts';

export interface ServerConfig {
  dataDir: string;
  port: number;
  bindAddress: string;
  /**
   * the address the `kubernetes` Service's endpoints name (kube-apiserver's --advertise-address),
   * also in the serving certificate; default: the bind address, or this host's first
   */
  advertiseAddress?: string;
  runtimeConfig?: string;
  storageBackend?: string;
  /** the etcd cluster, for storageBackend etcd3 */
  etcd?: EtcdFlags;
  /** certificates directory (default <dataDir>/pki); several servers on one etcd share one */
  certDir?: string;
  livezGracePeriodMs?: number;
  shutdownDelayMs?: number;
  /** --shutdown-send-retry-after: after the delay, new requests get 429 until the in-flight ones are done */
  shutdownSendRetryAfter?: boolean;
  /** --request-timeout (default 60 s): requests that are not long-running are answered 504 after it */
  requestTimeoutMs?: number;
  /** --http2-max-streams-per-connection and the connection timeouts (see serving-limits.ts) */
  servingLimits?: Partial<import('./serving-limits.ts').ServingLimits>;
  /** history kept for watches and past-revision reads; compaction runs this often (0: never) */
  compactionIntervalMs?: number;
  /** --encryption-provider-config and its automatic reload */
  encryption?: EncryptionFlags;
  /** --event-ttl: Events are deleted this long after their last write (default 1 h; 0 keeps them) */
  eventTtlMs?: number;
  bookmarkIntervalMs?: number;
  /** the API server's feature gates (default: every gate at its default) */
  features?: FeatureGates;
  /** `--authorization-mode` (default Node,RBAC) */
  authorizationModes?: string;
  /** `--anonymous-auth` (default true) */
  anonymousAuth?: boolean;
  /** bearer tokens and service accounts, by kube-apiserver's flags */
  authentication?: AuthenticationFlags;
  /** `--enable-admission-plugins` / `--disable-admission-plugins` (default: kube-apiserver's default-on plugins) */
  admission?: AdmissionFlags;
  /**
   * `--kubelet-certificate-authority`: a PEM file; node agents' serving certificates are verified
   * against it (read once the certificates exist, so it may name the cluster CA's own file)
   */
  kubeletCertificateAuthority?: string;
  /** --proxy-client-cert-file, --proxy-client-key-file, --requestheader-client-ca-file, --requestheader-allowed-names */
  frontProxy?: import('./aggregator/front-proxy.ts').FrontProxyFlags;
  /** how often APIServices are read for the availability checks (default 1 s) */
  aggregatorTickMs?: number;
  /** --audit-policy-file, --audit-log-* */
  audit?: AuditFlags;
  /** --enable-priority-and-fairness, --max-requests-inflight, --max-mutating-requests-inflight; absent: no limits */
  flowControl?: FlowControlFlags;
  log: Logger;
}

export interface FlowControlFlags {
  /** default true; APF runs when a classifier is given too */
  enablePriorityAndFairness?: boolean;
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  /** APF's configuration side: which FlowSchema and priority level each request is in */
  classifier?: FlowClassifier;
}

export interface RunningServer {
  url: string;
  port: number;
  kubeconfigPath: string;
  /** kubeconfigs of the controller manager and the scheduler, each with its own identity */
  componentKubeconfigs: { controllerManager: string; scheduler: string };
  /** the cluster CA with its key, for the CSR signers of an in-process controller manager */
  clusterCA: { cert: string; key: string };
  /** the client certificates the kubeconfigs above hold, for clients in this process (no YAML read back) */
  credentials: { admin: CertAndKey; controllerManager: CertAndKey; scheduler: CertAndKey };
  /** serves on one more address too, on the same port (see ApiServer.listenAlso) */
  listenAlso(host: string): Promise<void>;
  /** readyz fails first, then (after the shutdown delay) in-flight requests finish and it stops */
  shutdown(): Promise<void>;
}

/** the address the `kubernetes` service's endpoints name: the bound one, or this host's first */
function advertiseAddress(bind: string): string {
  if (bind !== '0.0.0.0' && bind !== '::') return bind;
  const external = Object.values(networkInterfaces()).flat().find(i => i && !i.internal && i.family === 'IPv4');
  return external?.address ?? '127.0.0.1';
}

export async function startServer(cfg: ServerConfig): Promise<RunningServer> {
  const started = Date.now();
  const log = cfg.log;
  // bad admission flags stop the server before it opens anything
  const admissionPlugins = enabledAdmissionPlugins(cfg.admission ?? {});
  const pluginConfig = cfg.admission?.configFile ? await readAdmissionConfig(cfg.admission.configFile) : undefined;
  // a bad audit policy stops the server before it opens anything too
  const auditor = cfg.audit ? await buildAuditor(cfg.audit, log) : undefined;
  // before anything is written into them: the database holds every Secret
  await securePrivateDirs(cfg.dataDir, cfg.certDir ?? join(cfg.dataDir, 'pki'), log);
  const health = createHealth({ now: () => Date.now(), livezGracePeriodMs: cfg.livezGracePeriodMs ?? 0 });
  // custom resources join the built-in table as their CRDs are established
  const catalog = extensibleCatalog(createCatalog({ runtimeConfig: cfg.runtimeConfig }));
  // every read and watch goes through the watch cache; writes pass through to the backend
  // /metrics: the backend's calls are timed below the cache, the objects counted from the cache
  const metrics = createApiServerMetrics();
  const opened = await openStorage(cfg.storageBackend ?? 'sqlite', { dataDir: cfg.dataDir, etcd: cfg.etcd, log });
  // the SQLite backend's extras are taken from it directly: the layers above it (timing,
  // encryption) offer only the storage contract
  const sqlite = opened as Partial<Pick<SqliteStorage, 'revisionBefore' | 'backup' | 'fileSizes'>>;
  const timed = instrumentStorage(opened, metrics.recordStorage);
  // values of the configured resources are encrypted between the watch cache and the backend
  // loaded only when configured: its ciphers bring tweetnacl, protobuf and gRPC (for KMS) along
  const encryption = cfg.encryption ? await (await import('../storage/encryption/at-rest.ts')).encryptionAtRest(timed, cfg.encryption, (name, check) => health.addCheck(['healthz', 'livez', 'readyz'], { name, check }), log) : undefined;
  const backend = encryption?.storage ?? timed;
  const storage = createCacher(backend, { log, indexers: storageIndexers() });
  metrics.countObjects(() => storage.stats().prefixes);
  health.addCheck(['healthz', 'livez', 'readyz'], { name: 'etcd', check: async () => { if (!(await storage.healthy())) throw new Error('storage is not reachable'); } });

  // custom resources convert between versions through their CRD's converter (its webhook reached
  // as admission webhooks are)
  const conversions = new CustomResourceConversions(conversionReviewCaller((ns, name, port) => endpointSliceResolver(store, catalog)(ns, name, port)));
  const store: GenericStore = new GenericStore({
    storage,
    strategyFor,
    converterFor: info => conversions.forResource(info),
    isStale: encryption ? key => encryption.storage.isStale(key) : undefined,
    async listOther(group, resource) {
      const info = catalog.resources(group, group ? catalog.groups().find(g => g.name === group)?.preferredVersion ?? 'v1' : 'v1').find(r => r.resource === resource);
      return info ? (await store.list(info, undefined)).items : [];
    },
  });

  const pkiDone = health.addPostStartHook('generate-certificates');
  const boundIPs = cfg.bindAddress === '0.0.0.0' || cfg.bindAddress === '::' ? [] : [cfg.bindAddress];
  const pki = await ensurePki(cfg.dataDir, { hosts: [hostname()], ips: [...new Set([...boundIPs, ...(cfg.advertiseAddress ? [cfg.advertiseAddress] : [])])], certDir: cfg.certDir, log });
  const frontProxy = await ensureFrontProxyPki(pki.dir, log, cfg.frontProxy);
  pkiDone();
  const kubeletCA = cfg.kubeletCertificateAuthority ? await readFile(cfg.kubeletCertificateAuthority, 'utf8') : undefined;
  const authentication = await setupAuthentication(cfg.authentication ?? {}, { registry: store, catalog, certDir: cfg.certDir ?? join(cfg.dataDir, 'pki') });

  // RBAC reads its roles and bindings from the watch cache; the defaults are in place and read
  // before the first request is taken
  const rbacDone = health.addPostStartHook('rbac/bootstrap-roles');
  const authz = await buildAuthorization({ modes: cfg.authorizationModes ?? 'Node,RBAC', anonymous: cfg.anonymousAuth ?? true, registry: store, catalog, log });
  rbacDone();
  const admission = buildAdmissionChain(admissionPlugins, { registry: store, catalog, authorizer: authz.authorization.authorizer, now: () => new Date(), random: Math.random, features: cfg.features, log, pluginConfig });
  log.info('admission plugins', { order: admission.names.join(',') });
  const aggregator = createAggregator({ store, catalog, frontProxy, log, tickMs: cfg.aggregatorTickMs });
  const snapshot = sqlite.backup ? { dir: cfg.dataDir, backup: sqlite.backup.bind(opened) } : undefined;
  // follows the stored configuration and keeps the FlowSchemas' Dangling conditions; until the
  // bootstrap objects are written it classifies by the mandatory ones, as kube-apiserver does
  const apfClassifier = createFlowClassifier({ registry: store, catalog, log });
  const flowControl = cfg.flowControl && {
    classifier: cfg.flowControl.enablePriorityAndFairness === false ? undefined : cfg.flowControl.classifier ?? apfClassifier,
    maxRequestsInflight: cfg.flowControl.maxRequestsInflight,
    maxMutatingRequestsInflight: cfg.flowControl.maxMutatingRequestsInflight,
    objectCount: objectCounter(() => storage.stats().prefixes),
  };
  const server = createApiServer({ flowControl, metrics, audit: auditor, snapshot, aggregator, admission, authorization: authz.authorization, authentication, catalog, registry: store, health, log, bookmarkIntervalMs: cfg.bookmarkIntervalMs, features: cfg.features, limits: cfg.servingLimits, requestTimeoutMs: cfg.requestTimeoutMs, tls: { cert: pki.serverCert, key: pki.serverKey, ca: pki.caCert }, nodeClientTls: { cert: pki.kubeletClientCert, key: pki.kubeletClientKey, ca: kubeletCA } });
  const { port } = await server.listen(cfg.port, cfg.bindAddress);
  const host = cfg.bindAddress === '0.0.0.0' ? '127.0.0.1' : cfg.bindAddress === '::' ? '[::1]' : cfg.bindAddress.includes(':') ? `[${cfg.bindAddress}]` : cfg.bindAddress;
  const url = `https://${host}:${port}`;
  const kubeconfigPath = join(cfg.dataDir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfigPath, { server: url, caCertPem: pki.caCert, clientCertPem: pki.adminCert, clientKeyPem: pki.adminKey });
  const componentKubeconfigs = { controllerManager: join(cfg.dataDir, 'controller-manager.kubeconfig'), scheduler: join(cfg.dataDir, 'scheduler.kubeconfig') };
  await writeKubeconfig(componentKubeconfigs.controllerManager, { server: url, caCertPem: pki.caCert, clientCertPem: pki.controllerManager.cert, clientKeyPem: pki.controllerManager.key, userName: 'system:kube-controller-manager' });
  await writeKubeconfig(componentKubeconfigs.scheduler, { server: url, caCertPem: pki.caCert, clientCertPem: pki.scheduler.cert, clientKeyPem: pki.scheduler.key, userName: 'system:kube-scheduler' });

  const nsDone = health.addPostStartHook('start-system-namespaces-controller');
  const bootDone = health.addPostStartHook('bootstrap-controller');
  await ensureSystemNamespaces(store, catalog);
  nsDone();
  await ensureKubernetesService(store, catalog, port);
  await ensureKubernetesEndpoints(store, catalog, cfg.advertiseAddress ?? advertiseAddress(cfg.bindAddress), port);
  await ensureDefaultStorageClass(store, catalog);
  bootDone();
  const crdDone = health.addPostStartHook('start-apiextensions-controllers');
  const crdController = startCrdController({ registry: store, catalog, log, conversions });
  await crdController.synced;
  crdDone();
  const priorityDone = health.addPostStartHook('scheduling/bootstrap-system-priority-classes');
  await ensureSystemPriorityClasses(store, catalog);
  priorityDone();
  // API Priority and Fairness' bootstrap configuration, kept true every minute
  const apfDone = health.addPostStartHook('priority-and-fairness-config-producer');
  await ensureFlowControlBootstrapAtStart({ registry: store, catalog, log });
  const apfProducer = startFlowControlConfigProducer({ registry: store, catalog, log });
  await apfClassifier.synced;
  apfDone();
  const aggregatorDone = health.addPostStartHook('apiservice-registration-controller');
  await ensureExtensionAuthConfigMap(store, catalog, extensionAuthData(pki.caCert, frontProxy));
  await ensureLocalAPIServices(store, catalog);
  const crdAPIServices = startCrdAPIServiceRegistration({ store, catalog, log });
  aggregator.start();
  aggregatorDone();
  const compactionMs = cfg.compactionIntervalMs ?? 5 * 60_000;
  const compactor = compactionMs > 0 ? startCompactor(storage, { intervalMs: compactionMs, retentionMs: compactionMs, log, revisionBefore: sqlite.revisionBefore?.bind(opened) }) : undefined;
  if (compactor) health.addCheck(['readyz'], { name: 'storage-compaction', check: () => compactor.check() });
  const sizes = sqlite.fileSizes?.bind(opened);
  metrics.storageUpkeep(async () => {
    const files = sizes?.();
    return {
      lastCompactionSuccessMs: compactor?.status().lastSuccessAt,
      currentRevision: await storage.currentRevision(),
      compactedRevision: await storage.compactedRevision(),
      sizeBytes: files ? files.database + files.wal : undefined,
    };
  });
  const eventTtlMs = cfg.eventTtlMs ?? defaultEventTtlMs;
  const eventTtl = eventTtlMs > 0 ? startEventTtl(store, catalog, { ttlMs: eventTtlMs, log }) : undefined;
  log.info('server ready', { url, ms: Date.now() - started });
  // so that the first /metrics scrape, often made under load, does not load the library itself
  const promPreload = setTimeout(preloadPromClient, 1000);
  promPreload.unref();

  let stopping: Promise<void> | undefined;
  return {
    url, port, kubeconfigPath, componentKubeconfigs, clusterCA: { cert: pki.caCert, key: pki.caKey },
    credentials: { admin: { cert: pki.adminCert, key: pki.adminKey }, controllerManager: pki.controllerManager, scheduler: pki.scheduler },
    listenAlso: host => server.listenAlso(port, host),
    shutdown() {
      stopping ??= (async () => {
        health.beginShutdown();
        clearTimeout(promPreload);
        const delay = cfg.shutdownDelayMs ?? 0;
        if (delay > 0) await new Promise(r => setTimeout(r, delay));
        // in-flight requests get as long as --request-timeout gives any request
        await server.close(cfg.requestTimeoutMs ?? defaultRequestTimeoutMs, { retryAfter: cfg.shutdownSendRetryAfter });
        auditor?.close();
        authz.stop();
        crdController.stop();
        apfProducer.stop();
        apfClassifier.stop();
        await crdAPIServices.stop();
        await aggregator.stop();
        compactor?.stop();
        eventTtl?.stop();
        encryption?.stop();
        await storage.close();
      })();
      return stopping;
    },
  };
}
