// --encryption-provider-config, as the API server's start sets it up: the backend wrapped so the configured
// resources are encrypted at rest, the KMS plugins' health as kube-apiserver's `kms-providers`
// check, and with --encryption-provider-config-automatic-reload the file read again when it
// changes (a bad new file is logged and the running configuration kept, as Kubernetes does).

import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from '../../api/log.ts';
import type { Storage } from '../interface.ts';
import { parseEncryptionConfig } from './config.ts';
import { buildTransformers } from './transformers.ts';
import { encryptingStorage, type EncryptingStorage } from './encrypting-storage.ts';

export interface EncryptionFlags {
  /** --encryption-provider-config */
  configFile: string;
  /** --encryption-provider-config-automatic-reload */
  automaticReload?: boolean;
  /** how often the file is also polled when reloading (default 1 minute, as kube-apiserver polls) */
  reloadIntervalMs?: number;
}

export interface EncryptionAtRest {
  storage: EncryptingStorage;
  stop(): void;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** `addHealthCheck` registers a check on healthz, livez and readyz */
export async function encryptionAtRest(backend: Storage, flags: EncryptionFlags, addHealthCheck: (name: string, check: () => Promise<void> | void) => void, log: Logger): Promise<EncryptionAtRest> {
  let text = await readFile(flags.configFile, 'utf8');
  let hash = hashOf(text);
  // a bad file stops the server at start
  let config = parseEncryptionConfig(text, flags.configFile);
  let transformers = buildTransformers(config);
  const storage = encryptingStorage(backend, transformers);
  const hasKms = () => config.rules.some(r => r.providers.some(p => p.type === 'kms'));
  if (hasKms() || flags.automaticReload) {
    addHealthCheck('kms-providers', () => (hasKms() ? transformers.kmsHealth() : undefined));
  }
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  if (flags.automaticReload) {
    const reload = async () => {
      text = await readFile(flags.configFile, 'utf8');
      if (hashOf(text) === hash) return;
      hash = hashOf(text);
      try {
        const next = parseEncryptionConfig(text, flags.configFile);
        const built = buildTransformers(next);
        config = next;
        transformers = built;
        storage.setTransformers(built);
        log.info('encryption provider configuration reloaded', { file: flags.configFile });
      } catch (err) {
        log.error('encryption provider configuration not reloaded; the one in use is kept', { file: flags.configFile, err: (err as Error).message });
      }
    };
    const check = () => { reload().catch(err => log.warn('encryption provider configuration unreadable', { file: flags.configFile, err: String(err) })); };
    // a change is seen at once through the directory (editors and ConfigMap mounts replace the
    // file rather than write it); the poll catches what a watch can miss
    try {
      watcher = watch(dirname(flags.configFile), (_, name) => { if (!name || name === basename(flags.configFile)) check(); });
      watcher.unref();
    } catch { /* no watch here: the poll alone */ }
    timer = setInterval(check, flags.reloadIntervalMs ?? 60_000);
    timer.unref();
  }
  return { storage, stop: () => { clearInterval(timer); watcher?.close(); } };
}
