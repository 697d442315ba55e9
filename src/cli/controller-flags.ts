// The controller flags `orch server` and `orch controller-manager` share, named as
// kube-controller-manager names them.

import { readFileSync } from 'node:fs';
import { parseDuration } from '../api/duration.ts';
import { parseGoBool } from '../api/go-bool.ts';
import { controllerNames, selectControllers, type ControllerSettings } from '../controllers/manager.ts';
import { flag, UsageError, type Flag } from './command.ts';

export const controllerFlags: Record<string, Flag> = {
  controllers: { type: 'string', default: '*', description: `control loops to run: "*" (all), "name", "-name" (comma-separated; known: ${controllerNames().join(', ')})` },
  'node-monitor-grace-period': { type: 'string', default: '50s', description: 'how long a node may go unheard before its conditions turn Unknown and it is tainted unreachable' },
  'node-monitor-period': { type: 'string', default: '5s', description: 'how often node health is checked' },
  'concurrent-gc-syncs': { type: 'string', default: '20', description: 'objects the garbage collector looks at in parallel' },
  'enable-garbage-collector': { type: 'string', default: 'true', description: 'run the garbage collector (false: turn it off whatever --controllers says)' },
  'root-ca-file': { type: 'string', default: '', description: 'the cluster CA (PEM) published as kube-root-ca.crt in every namespace (default: the kubeconfig\'s certificate authority)' },
  'horizontal-pod-autoscaler-sync-period': { type: 'string', default: '15s', description: 'how often each HorizontalPodAutoscaler is looked at' },
  'horizontal-pod-autoscaler-downscale-stabilization': { type: 'string', default: '5m0s', description: 'how far back the highest recommendation holds a scale-down' },
  'horizontal-pod-autoscaler-tolerance': { type: 'string', default: '0.1', description: 'the least change of the usage-to-target ratio that makes an autoscaler act' },
  'resource-quota-sync-period': { type: 'string', default: '5m0s', description: 'how often every ResourceQuota\'s usage is counted afresh' },
  'concurrent-resource-quota-syncs': { type: 'string', default: '5', description: 'ResourceQuotas counted in parallel' },
  'max-endpoints-per-slice': { type: 'string', default: '100', description: 'the most endpoints the EndpointSlice controller puts in one slice (1 to 1000)' },
  'cluster-signing-cert-file': { type: 'string', default: '', description: 'the CA certificate (PEM) the CSR signers issue certificates with (orch server and orch up: the cluster CA)' },
  'cluster-signing-key-file': { type: 'string', default: '', description: 'the private key of --cluster-signing-cert-file' },
  'cluster-signing-duration': { type: 'string', default: '8760h0m0s', description: 'the longest lifetime of a certificate the signers issue (a request\'s spec.expirationSeconds may ask for less)' },
  'local-path-dir': { type: 'string', default: '/var/lib/orch/storage', description: 'the directory on each node under which the local-path provisioner makes volumes' },
};

function positiveInt(name: string, v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1) throw new Error(`invalid value "${v}" for flag --${name}: must be a positive integer`);
  return n;
}

function bool(name: string, v: string): boolean {
  const b = parseGoBool(v);
  if (b === undefined) throw new Error(`invalid boolean value "${v}" for flag --${name}`);
  return b;
}


/** the controllers' settings from their flags; without --root-ca-file, the caller sets rootCA from its kubeconfig */
export function controllerOptions(values: Record<string, string | boolean | undefined>): { enabled: string[]; settings: ControllerSettings } {
  const caFile = String(values['root-ca-file'] ?? '');
  const rootCA = caFile ? flag(() => readFileSync(caFile, 'utf8')) : undefined;
  const signingCert = String(values['cluster-signing-cert-file'] ?? ''), signingKey = String(values['cluster-signing-key-file'] ?? '');
  if (!signingCert !== !signingKey) throw new UsageError('--cluster-signing-cert-file and --cluster-signing-key-file must be given together');
  const clusterSigning = signingCert ? flag(() => ({ cert: readFileSync(signingCert, 'utf8'), key: readFileSync(signingKey, 'utf8') })) : undefined;
  return {
    enabled: flag(() => {
      const spec = String(values.controllers).split(',').filter(Boolean);
      // as kube-controller-manager: the garbage collector off overrides --controllers
      if (!bool('enable-garbage-collector', String(values['enable-garbage-collector'] ?? 'true'))) spec.unshift('-garbage-collector-controller');
      return selectControllers(spec);
    }),
    settings: {
      concurrentGCSyncs: flag(() => positiveInt('concurrent-gc-syncs', String(values['concurrent-gc-syncs'] ?? '20'))),
      nodeMonitorGracePeriodMs: flag(() => parseDuration(String(values['node-monitor-grace-period']))),
      nodeMonitorPeriodMs: flag(() => parseDuration(String(values['node-monitor-period']))),
      maxEndpointsPerSlice: flag(() => endpointsPerSlice(String(values['max-endpoints-per-slice'] ?? '100'))),
      rootCA,
      hpaSyncPeriodMs: flag(() => parseDuration(String(values['horizontal-pod-autoscaler-sync-period'] ?? '15s'))),
      hpaDownscaleStabilizationMs: flag(() => parseDuration(String(values['horizontal-pod-autoscaler-downscale-stabilization'] ?? '5m0s'))),
      hpaTolerance: flag(() => tolerance(String(values['horizontal-pod-autoscaler-tolerance'] ?? '0.1'))),
      resourceQuotaSyncPeriodMs: flag(() => parseDuration(String(values['resource-quota-sync-period'] ?? '5m0s'))),
      concurrentResourceQuotaSyncs: flag(() => positiveInt('concurrent-resource-quota-syncs', String(values['concurrent-resource-quota-syncs'] ?? '5'))),
      clusterSigning,
      clusterSigningDurationMs: flag(() => parseDuration(String(values['cluster-signing-duration'] ?? '8760h0m0s'))),
      localPathDir: values['local-path-dir'] === undefined ? undefined : String(values['local-path-dir']),
    },
  };
}

function endpointsPerSlice(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Error(`--max-endpoints-per-slice must be between 1 and 1000, got ${JSON.stringify(v)}`);
  return n;
}

function tolerance(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--horizontal-pod-autoscaler-tolerance must be a non-negative number, got ${JSON.stringify(v)}`);
  return n;
}
