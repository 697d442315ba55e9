// The machine's own files (/proc, /sys, /etc), read under a root that tests point at a fake tree.

import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface HostFiles {
  /** a file's text, or undefined when it does not exist or cannot be read */
  read(path: string): Promise<string | undefined>;
  /** a directory's entries, or [] */
  list(path: string): Promise<string[]>;
}

export function hostFiles(root = '/'): HostFiles {
  return {
    read: p => readFile(join(root, p), 'utf8').catch(() => undefined),
    list: p => readdir(join(root, p)).catch(() => []),
  };
}

/** "Key:   123 kB" lines (as /proc/meminfo writes them) as bytes per key */
export function parseKbTable(text: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of (text ?? '').split('\n')) {
    const m = /^([^:]+):\s+(\d+)(?:\s+kB)?$/.exec(line.trim());
    if (m) out.set(m[1]!, Number(m[2]) * (line.trim().endsWith('kB') ? 1024 : 1));
  }
  return out;
}
