// hostPath volumes: the host's own path, checked against the volume's type as the kubelet checks
// it before any container starts (DirectoryOrCreate and FileOrCreate make what is missing, 0755
// and 0644, a FileOrCreate's parent excepted). The checks follow symlinks; a "file" is anything
// that exists and is not a directory, as the kubelet's checker has it. Failures are worded as
// the kubelet words them, and reach the pod as FailedMount events.

import { mkdir, open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { VolumeProblem } from './volume-error.ts';

const checks: Record<string, [(s: Stats) => boolean, string]> = {
  Directory: [s => s.isDirectory(), 'directory'],
  File: [s => !s.isDirectory(), 'file'],
  Socket: [s => s.isSocket(), 'socket file'],
  CharDevice: [s => s.isCharacterDevice(), 'character device'],
  BlockDevice: [s => s.isBlockDevice(), 'block device'],
};

const orCreate: Record<string, string> = { DirectoryOrCreate: 'Directory', FileOrCreate: 'File' };

/** Go's wording of a failed open or mkdir, which the kubelet passes on as it is */
function goError(op: string, path: string, err: NodeJS.ErrnoException): VolumeProblem {
  const words: Record<string, string> = { ENOENT: 'no such file or directory', ENOTDIR: 'not a directory', EACCES: 'permission denied', EEXIST: 'file exists', EROFS: 'read-only file system' };
  return new VolumeProblem(`${op} ${path}: ${words[err.code ?? ''] ?? err.message}`);
}

export async function setUpHostPath(path: string, type: string | undefined): Promise<void> {
  if (path.split('/').includes('..')) throw new VolumeProblem(`invalid HostPath \`${path}\`: must not contain '..'`);
  if (!type) return;
  const st = await stat(path).catch(() => undefined);
  if (!st && type === 'DirectoryOrCreate') {
    await mkdir(path, { recursive: true, mode: 0o755 }).catch(err => { throw goError('mkdir', path, err); });
    return;
  }
  if (!st && type === 'FileOrCreate') {
    // O_CREAT without O_EXCL: a file made meanwhile is as good
    const fh = await open(path, 'a', 0o644).catch(err => { throw goError('open', path, err); });
    await fh.close();
    return;
  }
  const check = checks[orCreate[type] ?? type];
  if (!check) throw new VolumeProblem(`${type} is an invalid volume type`);
  if (!st || !check[0](st)) throw new VolumeProblem(`hostPath type check failed: ${path} is not a ${check[1]}`);
}
