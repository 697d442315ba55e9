// A local OCI image from busybox-static (no registry is reachable here): one layer with
// /bin/busybox and its applet links, a config with the given command, made by orch's own
// archive writer and imported into a test containerd, or written to a file for
// `orch images import`.

import { existsSync, readFileSync } from 'node:fs';
import { ociArchive } from '../../src/agent/containerd/oci-archive.ts';
import type { Containerd } from './containerd.ts';

const applets = ['sh', 'echo', 'sleep', 'cat', 'ls', 'true', 'false', 'httpd', 'nc', 'wget', 'env', 'touch', 'test', 'kill', 'ps', 'id', 'mkdir', 'date', 'tar', 'head', 'sha256sum', 'stty'];

export function busyboxSkipReason(): string | undefined {
  return existsSync('/bin/busybox') ? undefined : 'busybox-static not installed (apt-get install busybox-static)';
}

/** the busybox image as an OCI archive, named `name` */
export function busyboxArchive(name: string, cmd: string[] = ['sh']): Buffer {
  return ociArchive({
    name,
    architecture: process.arch === 'arm64' ? 'arm64' : 'amd64',
    cmd,
    env: ['PATH=/bin'],
    files: [
      ...['bin/', 'tmp/', 'etc/', 'proc/', 'sys/', 'dev/'].map(path => ({ path })),
      { path: 'bin/busybox', data: readFileSync('/bin/busybox'), mode: 0o755 },
      ...applets.map(a => ({ path: `bin/${a}`, linkTo: 'busybox' })),
    ],
  });
}

/** builds the image and imports it under each name */
export async function importBusyboxImage(containerd: Containerd, names: string[], cmd: string[] = ['sh']): Promise<void> {
  await containerd.ctr(['image', 'import', '-'], busyboxArchive(names[0]!, cmd));
  for (const extra of names.slice(1)) await containerd.ctr(['image', 'tag', '--force', names[0]!, extra]);
}
