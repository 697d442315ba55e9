// Finds real kubectl binaries and runs them against a kubeconfig.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

const sdk = '/usr/lib/google-cloud-sdk/bin';

/** kubectl versions to test against: the newest and the oldest present, by label */
export function kubectls(): Array<{ label: string; path: string }> {
  const found: Array<{ label: string; path: string }> = [];
  if (existsSync(`${sdk}/kubectl.1.33`)) found.push({ label: '1.33', path: `${sdk}/kubectl.1.33` });
  else if (existsSync('/usr/bin/kubectl')) found.push({ label: 'default', path: '/usr/bin/kubectl' });
  if (existsSync(`${sdk}/kubectl.1.27`)) found.push({ label: '1.27', path: `${sdk}/kubectl.1.27` });
  return found;
}

export interface Run { code: number; stdout: string; stderr: string }

export function kubectl(bin: string, kubeconfig: string, args: string[], input?: string): Promise<Run> {
  return new Promise(resolve => {
    const child = execFile(bin, ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    if (input !== undefined) { child.stdin!.write(input); child.stdin!.end(); }
  });
}
