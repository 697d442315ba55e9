// Shared pieces of the volume tests: a pod with volumes, an object source holding a ConfigMap
// and a Secret (and the claims and volumes a test gives it), a temp root, and the check that a set-up failed with the kubelet's words.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VolumeSetupError } from '../../../../../src/agent/pods/volumes.ts';
import { unmountAllUnder } from '../../../../../src/agent/pods/volumes/host-mounts.ts';
import type { DataObject, ObjectSource } from '../../../../../src/agent/pods/object-source.ts';
import type { Pod } from '../../../../../src/agent/pods/types.ts';
import { requires } from '../../../../support/requires.ts';

export function objectSource(store: Record<string, DataObject> = {
  'configmaps/cfg': { data: { color: 'blue', size: 'L' }, binaryData: { blob: Buffer.from([0, 1, 2]).toString('base64') } },
  'secrets/sec': { data: { token: Buffer.from('s3cret').toString('base64') } },
}, claims: Record<string, unknown> = {}): ObjectSource & { store: Record<string, DataObject>; claims: Record<string, unknown> } {
  return {
    store, claims,
    async get(kind, _ns, name) { return store[`${kind}/${name}`]; },
    async claim(ns, name) { return claims[`persistentvolumeclaims/${ns}/${name}`] as never; },
    async volume(name) { return claims[`persistentvolumes/${name}`] as never; },
  };
}

export function pod(volumes: unknown[], opts: { labels?: Record<string, string>; containers?: unknown[]; initContainers?: unknown[] } = {}): Pod {
  return {
    metadata: { name: 'web', namespace: 'shop', uid: 'u-2', labels: opts.labels ?? { app: 'web', tier: 'front "end"' }, annotations: { note: 'a\nb' } },
    spec: {
      nodeName: 'n1', volumes,
      containers: opts.containers ?? [{ name: 'main', image: 'i', resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1500m', memory: '128Mi' } } }],
      ...(opts.initContainers ? { initContainers: opts.initContainers } : {}),
    },
  } as unknown as Pod;
}

export async function withRoot(fn: (root: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'orch-vols-'));
  // Secret, downward API and projected volumes are tmpfs mounts when the tests run as root
  try { await fn(root); } finally { await unmountAllUnder(root); await rm(root, { recursive: true, force: true }); }
}

/** a rejection of prepareVolumes with exactly these FailedMount messages (and waiting reason) */
export const failedMount = (messages: string[], reason = 'ContainerCreating', message = '') => (e: unknown) => {
  if (!(e instanceof VolumeSetupError)) throw e;
  if (JSON.stringify(e.failedMounts) !== JSON.stringify(messages) || e.reason !== reason || e.message !== message) {
    throw new Error(`got ${JSON.stringify({ failedMounts: e.failedMounts, reason: e.reason, message: e.message })}`);
  }
  return true;
};

/** mount(8) needs root: tests that mount skip elsewhere (and fail in CI, which runs as root) */
export const asRoot = requires(process.getuid?.() !== 0 && 'mounting needs root');
