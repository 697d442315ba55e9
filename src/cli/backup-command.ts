// `orch backup FILE`: a consistent snapshot of the SQLite database, taken while the cluster runs
// (as `k3s etcd-snapshot save`). A running server makes the copy itself (GET /storage/snapshot,
// as its admin); with no server on the data dir, the file is copied directly. With etcd,
// `etcdctl snapshot save` is the tool (docs/storage.md).

import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { loadKubeconfig } from '../client/kubeconfig.ts';
import { createTransport } from '../client/transport.ts';
import { snapshotPath, snapshotRevisionHeader } from '../apiserver/storage-snapshot.ts';
import { openSqliteStorage } from '../storage/sqlite/store.ts';
import { StorageError } from '../storage/interface.ts';
import { UsageError, type Command } from './command.ts';
import { defaultDataDir } from './up-paths.ts';

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** the copy through a running server; resolves to the revision it holds */
async function fromServer(kubeconfig: string, dest: string): Promise<number> {
  const transport = createTransport(await loadKubeconfig(kubeconfig));
  try {
    return await new Promise<number>((resolve, reject) => {
      transport.stream('GET', snapshotPath, { Accept: 'application/vnd.sqlite3' }, {
        onError: reject,
        onResponse: res => {
          if (res.statusCode !== 200) {
            let text = '';
            res.body.on('data', (c: Buffer) => { text += c.toString(); });
            res.body.on('end', () => {
              let message = text.trim();
              try { message = JSON.parse(text).message ?? message; } catch { /* not a Status */ }
              reject(new Error(`the server refused the snapshot (${res.statusCode}): ${message}`));
            });
            return;
          }
          pipeline(res.body, createWriteStream(dest, { mode: 0o600 })).then(() => resolve(Number(res.headers[snapshotRevisionHeader.toLowerCase()] ?? 0)), reject);
        },
      });
    });
  } finally {
    transport.close();
  }
}

/** the copy straight from the file, when no server holds it; undefined when one does */
async function fromFile(dataDir: string, dest: string): Promise<number | undefined> {
  const path = join(dataDir, 'orch.db');
  if (!(await stat(path).then(() => true, () => false))) throw new Error(`there is no database at ${path}`);
  let storage;
  try {
    storage = await openSqliteStorage({ path });
  } catch (err) {
    if (err instanceof StorageError && /in use/.test(err.message)) return undefined;
    throw err;
  }
  try {
    return (await storage.backup(dest)).revision;
  } finally {
    await storage.close();
  }
}

export const backupCommand: Command = {
  name: 'backup',
  summary: 'Save a consistent snapshot of the cluster\'s SQLite database, online.',
  usage: 'orch backup FILE [--data-dir DIR | --kubeconfig FILE]',
  flags: {
    'data-dir': { type: 'string', default: '', description: `the data dir of the cluster (default ${defaultDataDir()}); its running server makes the copy, or the file is copied when none runs` },
    kubeconfig: { type: 'string', default: '', description: 'ask the server this kubeconfig names (as an admin) instead of looking in a data dir' },
  },
  async run(values, positionals) {
    const file = positionals[0];
    if (!file || positionals.length > 1) throw new UsageError('usage: orch backup FILE');
    const dataDir = String(values['data-dir'] || defaultDataDir());
    const partial = `${file}.partial`;
    await rm(partial, { force: true });
    try {
      let revision: number | undefined;
      if (values.kubeconfig) revision = await fromServer(String(values.kubeconfig), partial);
      else revision = await fromFile(dataDir, partial) ?? await fromServer(join(dataDir, 'admin.kubeconfig'), partial);
      await rename(partial, file);
      process.stdout.write(`Snapshot saved to ${file} (revision ${revision}, ${mib((await stat(file)).size)})\n`);
      return 0;
    } finally {
      await rm(partial, { force: true });
    }
  },
};
