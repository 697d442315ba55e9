// Whether a container's command can be executed. The sim models /bin as a busybox image's: the
// busybox binary and its applets, plus the shells it interprets. A command naming anything else
// in /bin is not there, and the start fails as runc fails it on containerd (the container then
// exits with 128, reason StartError). Other paths and bare names are programs of images the sim
// knows nothing about, and run as daemons.

import { busyboxApplets } from './generated/busybox-applets.ts';

const interpretedShells = new Set(['sh', 'bash', 'ash', 'dash']);

/** whether the image holds this file in /bin: busybox, its applets, the shells */
export function inBin(path: string): boolean {
  if (!path.startsWith('/bin/')) return false;
  const name = path.slice('/bin/'.length);
  return name === 'busybox' || busyboxApplets.has(name) || interpretedShells.has(name);
}

/** containerd's error for a command that cannot be executed, or undefined when it can */
export function execProblem(command: readonly string[]): string | undefined {
  const path = command[0];
  if (!path?.startsWith('/bin/') || inBin(path)) return undefined;
  return `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: ${JSON.stringify(path)}: stat ${path}: no such file or directory: unknown`;
}
