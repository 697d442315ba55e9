// Termination messages as the kubelet gives them: each container start gets an empty host file
// mounted at its terminationMessagePath; after the container exits the file's contents (at most
// 4 KiB) are its message, or, with terminationMessagePolicy FallbackToLogsOnError and a failure
// that wrote nothing there, the tail of its log (80 lines, at most 2 KiB).

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { criLogParser } from '../logs/cri-log.ts';
import { TERMINATION_LOG_HOST, TERMINATION_MESSAGE_POLICY } from './cri-labels.ts';
import { podDir } from './volumes.ts';

const messageCap = 4096;
const logTailLines = 80;
const logTailBytes = 2048;

/** a new empty file for a container start, under the pod's directory, readable by any user in it */
export async function newTerminationLog(rootDir: string, uid: string, container: string): Promise<string> {
  const dir = join(podDir(rootDir, uid), 'containers', container);
  await mkdir(dir, { recursive: true });
  const file = join(dir, randomBytes(4).toString('hex'));
  await writeFile(file, '');
  // whatever user the container runs as can write its message (past the umask)
  await chmod(file, 0o666);
  return file;
}

/** the last `max` bytes of a file (or all of a shorter one) */
async function tail(path: string, max: number): Promise<Buffer | undefined> {
  const fh = await open(path, 'r').catch(() => undefined);
  if (!fh) return undefined;
  try {
    const size = (await fh.stat()).size;
    const n = Math.min(size, max);
    const buf = Buffer.alloc(n);
    await fh.read(buf, 0, n, size - n);
    return buf;
  } finally {
    await fh.close();
  }
}

/** the message of an exited container from its annotations, its exit code and its log file */
export async function terminationMessage(annotations: Record<string, string> | undefined, exitCode: number | undefined, logPath: string | undefined): Promise<string | undefined> {
  const file = annotations?.[TERMINATION_LOG_HOST];
  const fromFile = file ? (await tail(file, messageCap))?.toString('utf8') ?? '' : '';
  if (fromFile || annotations?.[TERMINATION_MESSAGE_POLICY] !== 'FallbackToLogsOnError' || !exitCode || !logPath) return fromFile || undefined;
  // enough of the log's end for its last 80 lines of text
  const raw = await tail(logPath, 64 * 1024);
  if (!raw) return undefined;
  // (the first record may be cut: the parser skips what does not parse)
  const lines = criLogParser().push(raw.toString('utf8'));
  const text = lines.slice(-logTailLines).map(l => `${l.text}\n`).join('');
  const bytes = Buffer.from(text);
  return (bytes.length > logTailBytes ? bytes.subarray(bytes.length - logTailBytes) : bytes).toString('utf8') || undefined;
}
