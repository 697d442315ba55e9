// <root-dir>/graceful_node_shutdown_state: when the last graceful shutdown started and ended,
// JSON as the kubelet writes it (Go times; an end not reached yet is Go's zero time), written
// whole so a shutdown cut short never leaves half a file.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../pki/atomic-write.ts';
import { rfc3339Nano } from '../../api/time.ts';

export const shutdownStateFile = 'graceful_node_shutdown_state';
/** Go's zero time.Time as encoding/json writes it */
export const goZeroTime = '0001-01-01T00:00:00Z';

export interface ShutdownState { startTime: string; endTime: string }

export function shutdownStatePath(rootDir: string): string {
  return join(rootDir, shutdownStateFile);
}

export async function writeShutdownState(rootDir: string, startMs: number, endMs?: number): Promise<void> {
  const state: ShutdownState = { startTime: rfc3339Nano(startMs), endTime: endMs === undefined ? goZeroTime : rfc3339Nano(endMs) };
  await writeFileAtomic(shutdownStatePath(rootDir), JSON.stringify(state), 0o644);
}

/** the state last written; absent file: none */
export async function readShutdownState(rootDir: string): Promise<ShutdownState | undefined> {
  const text = await readFile(shutdownStatePath(rootDir), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  return text === undefined ? undefined : JSON.parse(text) as ShutdownState;
}
