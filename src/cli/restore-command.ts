// `orch restore FILE --data-dir DIR`: puts a snapshot from `orch backup` in place of the data
// dir's database (the server must be stopped), keeping the one it replaces beside it.

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { restoreSnapshot } from '../storage/sqlite/restore.ts';
import { flag, UsageError, type Command } from './command.ts';
import { defaultDataDir } from './up-paths.ts';

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'Restore a snapshot made by orch backup into a data dir (server stopped).',
  usage: 'orch restore FILE [--data-dir DIR] [--bump-revision N]',
  flags: {
    'data-dir': { type: 'string', default: '', description: `the data dir to restore into (default ${defaultDataDir()})` },
    'bump-revision': { type: 'string', default: '1000000000', description: 'how far the revision jumps ahead, so clients that saw later revisions of the lost database list again (0: no jump)' },
  },
  async run(values, positionals) {
    const file = positionals[0];
    if (!file || positionals.length > 1) throw new UsageError('usage: orch restore FILE --data-dir DIR');
    const bump = flag(() => {
      const n = Number(values['bump-revision']);
      if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--bump-revision: ${JSON.stringify(values['bump-revision'])} is not a whole number ≥ 0`);
      return n;
    });
    const dataDir = String(values['data-dir'] || defaultDataDir());
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const r = await restoreSnapshot(file, join(dataDir, 'orch.db'), bump);
    process.stdout.write(`Restored ${file} into ${dataDir} at revision ${r.revision}${bump ? ' (earlier revisions count as compacted: clients list again)' : ''}\n`);
    if (r.previous) process.stdout.write(`The database it replaced is kept as ${r.previous}\n`);
    return 0;
  },
};
