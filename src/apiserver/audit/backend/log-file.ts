// The log backend of --audit-log-path: event lines collected during one turn of the event loop
// and written together afterwards, so a request never waits on the disk; the file rotates as
// lumberjack (kube-apiserver's rotation library) rotates it: past --audit-log-maxsize MB it is
// renamed to `<name>-<UTC time>.<ext>` and a new one begun, and backups beyond
// --audit-log-maxbackup or older than --audit-log-maxage days are removed.

import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export interface LogFileOptions {
  /** a file, or `-` for standard output */
  path: string;
  /** megabytes before rotation; 0: never rotated */
  maxSizeMB?: number;
  /** backups kept; 0: all (within maxAgeDays) */
  maxBackups?: number;
  /** days a backup is kept; 0: no limit */
  maxAgeDays?: number;
  now?: () => Date;
  /** a write that failed (disk full...): the event is lost, the request is not */
  onError?: (err: unknown) => void;
}

export interface LineWriter {
  write(line: string): void;
  /** writes what is pending now (tests, shutdown) */
  flush(): void;
  close(): void;
}

const megabyte = 1024 * 1024;

/** lumberjack's backup time layout, 2006-01-02T15-04-05.000, in UTC */
function backupStamp(t: Date): string {
  return t.toISOString().replace(/:/g, '-').replace(/Z$/, '');
}

export function backupName(path: string, t: Date): string {
  const ext = extname(path);
  return join(dirname(path), `${basename(path, ext)}-${backupStamp(t)}${ext}`);
}

export function openLogFile(o: LogFileOptions): LineWriter {
  const now = o.now ?? (() => new Date());
  const toStdout = o.path === '-';
  const maxBytes = (o.maxSizeMB ?? 0) * megabyte;
  // as lumberjack does, the log's directory is made when missing
  if (!toStdout) mkdirSync(dirname(o.path), { recursive: true, mode: 0o700 });
  let fd = toStdout ? 1 : openSync(o.path, 'a', 0o600);
  let size = toStdout ? 0 : fstatSync(fd).size;
  let pending: string[] = [];
  let scheduled = false;

  function removeOldBackups(): void {
    if (!o.maxBackups && !o.maxAgeDays) return;
    const ext = extname(o.path);
    const prefix = `${basename(o.path, ext)}-`;
    const dir = dirname(o.path);
    const stamp = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}$/;
    // newest first: the stamp sorts as the time it names
    const backups = readdirSync(dir)
      .filter(f => f.startsWith(prefix) && f.endsWith(ext) && stamp.test(f.slice(prefix.length, f.length - ext.length)))
      .sort().reverse();
    const cutoff = o.maxAgeDays ? now().getTime() - o.maxAgeDays * 86_400_000 : -Infinity;
    backups.forEach((f, i) => {
      const s = f.slice(prefix.length, f.length - ext.length);
      const at = Date.parse(`${s.slice(0, 10)}T${s.slice(11).replace(/-/g, ':')}Z`);
      if ((o.maxBackups && i >= o.maxBackups) || at < cutoff) {
        try { unlinkSync(join(dir, f)); } catch { /* already gone */ }
      }
    });
  }

  function rotate(): void {
    closeSync(fd);
    let name = backupName(o.path, now());
    // two rotations in one millisecond would overwrite a backup: step past the taken name
    for (let t = now().getTime() + 1; exists(name); t++) name = backupName(o.path, new Date(t));
    renameSync(o.path, name);
    fd = openSync(o.path, 'a', 0o600);
    size = 0;
    removeOldBackups();
  }

  function writeOut(text: string): void {
    const buf = Buffer.from(text);
    if (maxBytes && size > 0 && size + buf.length > maxBytes) rotate();
    writeSync(fd, buf);
    size += buf.length;
  }

  let closed = false;

  function flush(): void {
    scheduled = false;
    if (!pending.length || closed) return;
    try {
      writeLines();
    } catch (err) {
      o.onError?.(err);
    }
  }

  function writeLines(): void {
    const lines = pending;
    pending = [];
    if (!maxBytes) { writeOut(lines.join('')); return; }
    // a batch is split where a line would take the file past its size
    let chunk = '';
    let chunkBytes = 0;
    for (const line of lines) {
      const n = Buffer.byteLength(line);
      if (chunk && size + chunkBytes + n > maxBytes) { writeOut(chunk); chunk = ''; chunkBytes = 0; }
      chunk += line;
      chunkBytes += n;
    }
    if (chunk) writeOut(chunk);
  }

  return {
    write(line) {
      if (closed) return;
      pending.push(line + '\n');
      if (!scheduled) { scheduled = true; setImmediate(flush); }
    },
    flush,
    close() {
      flush();
      closed = true;
      if (!toStdout) closeSync(fd);
    },
  };
}

function exists(path: string): boolean {
  try { statSync(path); return true; } catch { return false; }
}
