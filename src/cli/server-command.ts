// `orch server`: the API server on the embedded store.

import { resolve } from 'node:path';
import { loggerFromFlags, loggingFlags } from './logging-flags.ts';
import { flag, type Command } from './command.ts';
import { featureGatesFlag, readFeatureGates } from './feature-gates-flag.ts';
import { authorizationFlags, authorizationOptions } from './authorization-flags.ts';
import { aggregatorFlags, aggregatorOptions } from './aggregator-flags.ts';
import { admissionFlags, admissionOptions } from './admission-flags.ts';
import { auditFlags, auditOptions } from './audit-flags.ts';
import { apiServerFeatureGates } from '../api/feature-gates.ts';
import { parseDuration } from '../api/duration.ts';
import { controllerFlags, controllerOptions } from './controller-flags.ts';
import { startControlPlane, type ControlPlane } from './control-plane.ts';
import { authenticationFlags, authenticationOptions } from './authentication-flags.ts';
import { releaseCompileCache } from './compile-cache.ts';
import { servingFlags, servingOptions } from './serving-flags.ts';

export const serverCommand: Command = {
  name: 'server',
  summary: 'Run the orch API server (Kubernetes-compatible) on the embedded SQLite store or on etcd.',
  usage: 'orch server [--data-dir DIR] [--port N] [flags]',
  flags: {
    'data-dir': { type: 'string', default: '.orch', description: 'directory for the database, certificates and admin.kubeconfig' },
    port: { type: 'string', default: '6443', description: 'HTTPS port; 0 picks a free port (printed at start)' },
    'bind-address': { type: 'string', default: '127.0.0.1', description: 'address to listen on' },
    'storage-backend': { type: 'string', default: 'sqlite', description: 'storage backend: sqlite (embedded) or etcd3' },
    'etcd-servers': { type: 'string', default: '', description: 'etcd endpoints for --storage-backend=etcd3, comma-separated (http://127.0.0.1:2379,...)' },
    'etcd-prefix': { type: 'string', default: '/registry', description: 'key prefix of every object in etcd' },
    'etcd-cafile': { type: 'string', default: '', description: 'CA bundle to verify etcd servers with (TLS)' },
    'etcd-certfile': { type: 'string', default: '', description: 'client certificate for etcd (TLS)' },
    'etcd-keyfile': { type: 'string', default: '', description: 'client key for etcd (TLS)' },
    'cert-dir': { type: 'string', default: '', description: 'directory of the cluster CA and server certificates (default <data-dir>/pki); made on first start, read by later ones: point every server sharing an etcd at the same one' },
    'runtime-config': { type: 'string', default: '', description: 'enable or disable API group versions, e.g. api/beta=true,coordination.k8s.io/v1beta1=false' },
    'livez-grace-period': { type: 'string', default: '0s', description: 'time after start during which livez ignores unfinished start-up hooks' },
    'kubelet-certificate-authority': { type: 'string', default: '', description: 'a PEM file of the CA that node agents\' serving certificates are verified against (default: not verified)' },
    'shutdown-delay-duration': { type: 'string', default: '0s', description: 'on SIGTERM, keep serving (readyz failing) this long before stopping' },
    ...servingFlags,
    'etcd-compaction-interval': { type: 'string', default: '5m', description: 'history kept for watches and reads at past versions; compaction runs this often (0 disables it)' },
    'encryption-provider-config': { type: 'string', default: '', description: 'an EncryptionConfiguration file (apiserver.config.k8s.io/v1): the resources it names are encrypted at rest' },
    'encryption-provider-config-automatic-reload': { type: 'boolean', default: false, description: 'read the encryption configuration again when the file changes' },
    'event-ttl': { type: 'string', default: '1h0m0s', description: 'how long Events are kept after their last write (0 keeps them)' },
    'watch-bookmark-interval': { type: 'string', default: '1m', description: 'how often watches that allow bookmarks get one' },
    'feature-gates': featureGatesFlag,
    ...authorizationFlags,
    ...aggregatorFlags,
    ...admissionFlags,
    ...auditFlags,
    ...authenticationFlags,
    ...controllerFlags,
    'disable-scheduler': { type: 'boolean', default: false, description: 'do not run the scheduler in this process (run `orch scheduler` apart, or place pods with spec.nodeName)' },
    'scheduler-name': { type: 'string', default: 'default-scheduler', description: 'spec.schedulerName values the in-process scheduler serves, comma-separated' },
    ...loggingFlags,
  },
  async run(values) {
    const log = loggerFromFlags(values);
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      process.stderr.write(`Error: invalid --port ${JSON.stringify(values.port)}\n`);
      return 2;
    }
    const livez = flag(() => parseDuration(String(values['livez-grace-period'])));
    const shutdownDelay = flag(() => parseDuration(String(values['shutdown-delay-duration'])));
    const compaction = flag(() => parseDuration(String(values['etcd-compaction-interval'])));
    const bookmarks = flag(() => parseDuration(String(values['watch-bookmark-interval'])));
    const eventTtl = flag(() => parseDuration(String(values['event-ttl'])));
    const serving = flag(() => servingOptions(values));
    const controllers = controllerOptions(values);
    const features = readFeatureGates(values['feature-gates'], apiServerFeatureGates);
    log.info('feature gates', features.effective());
    const dataDir = resolve(String(values['data-dir']));
    let plane: ControlPlane;
    try {
      plane = await startControlPlane({
        server: {
          dataDir, port, bindAddress: String(values['bind-address']),
          runtimeConfig: String(values['runtime-config'] ?? '') || undefined,
          ...authorizationOptions(values),
          ...aggregatorOptions(values),
          ...admissionOptions(values),
          ...auditOptions(values),
          storageBackend: String(values['storage-backend']),
          etcd: {
            servers: String(values['etcd-servers'] ?? '').split(',').map(x => x.trim()).filter(Boolean),
            prefix: String(values['etcd-prefix'] ?? '/registry'),
            caFile: String(values['etcd-cafile'] ?? '') || undefined,
            certFile: String(values['etcd-certfile'] ?? '') || undefined,
            keyFile: String(values['etcd-keyfile'] ?? '') || undefined,
          },
          certDir: String(values['cert-dir'] ?? '') ? resolve(String(values['cert-dir'])) : undefined,
          authentication: authenticationOptions(values),
          kubeletCertificateAuthority: String(values['kubelet-certificate-authority'] ?? '') ? resolve(String(values['kubelet-certificate-authority'])) : undefined,
          ...serving,
          livezGracePeriodMs: livez, shutdownDelayMs: shutdownDelay, compactionIntervalMs: compaction, eventTtlMs: eventTtl, encryption: values['encryption-provider-config'] ? { configFile: String(values['encryption-provider-config']), automaticReload: !!values['encryption-provider-config-automatic-reload'] } : undefined, bookmarkIntervalMs: bookmarks, features, log,
        },
        controllers,
        schedulerNames: values['disable-scheduler'] ? [] : String(values['scheduler-name']).split(',').map(x => x.trim()).filter(Boolean),
        log,
      });
    } catch (err) {
      process.stderr.write(`Error: ${(err as Error).message}\n`);
      return 1;
    }
    releaseCompileCache();
    process.stdout.write(`orch server listening on ${plane.server.url}\nkubeconfig: ${plane.server.kubeconfigPath}\n`);
    await new Promise<void>(done => {
      const stop = (sig: string) => {
        log.info('shutting down', { signal: sig });
        void plane.stop().then(done);
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
    return 0;
  },
};
