// Child process for sqlite-durability.test.ts: writes to a storage file as fast as it can and
// prints one line per acknowledged write ("key revision value"), only after the write's promise
// resolved, until it is killed.

import { openSqliteStorage } from '../../../../src/storage/sqlite/store.ts';

const path = process.argv[2]!;
const s = await openSqliteStorage({ path });
const enc = (t: string) => new TextEncoder().encode(t);
// stdout to a pipe is synchronous on Linux: a printed line has left this process
const ack = (key: string, revision: number, value: string) => process.stdout.write(`${key} ${revision} ${value}\n`);

async function worker(w: number): Promise<void> {
  for (let i = 0; ; i++) {
    const key = `/d/w${w}/k${i}`;
    let kv = await s.create(key, enc(`${w}.${i}.0`));
    ack(key, kv.modRevision, `${w}.${i}.0`);
    for (let u = 1; u <= 3; u++) {
      kv = await s.update(key, enc(`${w}.${i}.${u}`), kv.modRevision);
      ack(key, kv.modRevision, `${w}.${i}.${u}`);
    }
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
