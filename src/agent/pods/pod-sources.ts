// Where the agent's pods come from: the API (pods whose spec.nodeName is this node) and the
// static pod directory. Mirror pods in the API stand for static pods and are not run again;
// the agent creates them for its static pods, recreates them when deleted or outdated, and
// deletes mirrors whose manifest is gone.

import { watch, type FSWatcher } from 'node:fs';
import type { Logger } from '../../api/log.ts';
import { ApiError } from '../../client/api-error.ts';
import { createInformer, objectKey, type Informer } from '../../client/informer.ts';
import type { Client } from '../../client/rest.ts';
import type { Clock } from '../clock.ts';
import { CONFIG_HASH, CONFIG_MIRROR, isMirrorPod, mirrorPod, readStaticPods } from './static-pods.ts';
import type { Pod } from './types.ts';

export interface PodSink {
  update(pod: Pod): void;
  remove(uid: string): void;
}

export interface PodSources {
  /** resolves once the API's pods have been listed and the manifests read */
  synced(): Promise<void>;
  stop(): void;
}

export interface PodSourceOptions {
  client?: Client;
  nodeName: string;
  nodeUid(): string | undefined;
  staticPodPath?: string;
  fileCheckMs: number;
  sink: PodSink;
  clock: Clock;
  log: Logger;
}

export function startPodSources(o: PodSourceOptions): PodSources {
  let informer: Informer<Pod> | undefined;
  const statics = new Map<string, Pod>();
  let stopped = false;

  if (o.client) {
    informer = createInformer<Pod>(o.client, '/api/v1/pods', { fieldSelector: `spec.nodeName=${o.nodeName}`, log: o.log });
    informer
      .on('add', p => { if (isMirrorPod(p)) void reconcileMirrors(); else o.sink.update(p); })
      .on('update', (_a, p) => { if (isMirrorPod(p)) void reconcileMirrors(); else o.sink.update(p); })
      .on('delete', p => { if (isMirrorPod(p)) void reconcileMirrors(); else o.sink.remove(p.metadata.uid); });
    informer.start();
  }

  // until the manifests have been read once, every mirror pod would look stale
  let staticsLoaded = !o.staticPodPath;
  let reconciling: Promise<void> | undefined;
  let again = false;
  async function reconcileMirrors(): Promise<void> {
    if (!o.client || !informer?.hasSynced() || !staticsLoaded) return;
    if (reconciling) { again = true; return reconciling; }
    reconciling = (async () => {
      do {
        again = false;
        const client = o.client!;
        const mirrors = new Map(informer!.list().filter(isMirrorPod).map(p => [objectKey(p), p]));
        for (const pod of statics.values()) {
          const key = objectKey(pod);
          const have = mirrors.get(key);
          mirrors.delete(key);
          const path = `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace)}/pods`;
          if (have && have.metadata.annotations?.[CONFIG_MIRROR] === pod.metadata.annotations?.[CONFIG_HASH] && !have.metadata.deletionTimestamp) continue;
          try {
            if (have) await client.delete(`${path}/${encodeURIComponent(have.metadata.name)}`, { gracePeriodSeconds: 0, preconditions: { uid: have.metadata.uid } });
            await client.create(path, mirrorPod(pod, { name: o.nodeName, uid: o.nodeUid() }));
          } catch (err) {
            if (!(err instanceof ApiError && (err.code === 409 || err.code === 404))) o.log.warn('mirror pod not created', { pod: key, err: String(err) });
          }
        }
        for (const stale of mirrors.values()) {
          if (stale.metadata.deletionTimestamp) continue;
          await o.client!.delete(`/api/v1/namespaces/${encodeURIComponent(stale.metadata.namespace)}/pods/${encodeURIComponent(stale.metadata.name)}`, { gracePeriodSeconds: 0, preconditions: { uid: stale.metadata.uid } }).catch(() => undefined);
        }
      } while (again && !stopped);
    })().finally(() => { reconciling = undefined; });
    return reconciling;
  }

  let timer: { cancel(): void } | undefined;
  let watcher: FSWatcher | undefined;
  async function scanStatics(): Promise<void> {
    if (!o.staticPodPath || stopped) return;
    const found = await readStaticPods(o.staticPodPath, o.nodeName, o.clock.now(), (file, err) => o.log.warn('static pod manifest not loaded', { file, err }));
    const seen = new Set<string>();
    for (const pod of found) {
      seen.add(pod.metadata.uid);
      if (statics.has(pod.metadata.uid)) continue;
      statics.set(pod.metadata.uid, pod);
      o.sink.update(pod);
    }
    for (const [uid] of statics) if (!seen.has(uid)) { statics.delete(uid); o.sink.remove(uid); }
    staticsLoaded = true;
    await reconcileMirrors();
  }
  let firstScan: Promise<void> = Promise.resolve();
  if (o.staticPodPath) {
    const loop = () => scanStatics().finally(() => { if (!stopped) timer = o.clock.after(o.fileCheckMs, () => void loop()); });
    firstScan = loop();
    // a changed manifest is picked up at once, not only at the next periodic scan
    let pending: { cancel(): void } | undefined;
    try {
      watcher = watch(o.staticPodPath, () => { pending?.cancel(); pending = o.clock.after(100, () => void scanStatics()); });
      watcher.on('error', () => undefined);
    } catch { /* the directory may appear later; the periodic scan covers it */ }
  }

  return {
    async synced() {
      await firstScan;
      if (informer) { await informer.synced(); await reconcileMirrors(); }
    },
    stop() {
      stopped = true;
      informer?.stop();
      timer?.cancel();
      watcher?.close();
    },
  };
}
