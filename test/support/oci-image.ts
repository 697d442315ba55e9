// Builds a local OCI image from busybox-static (no registry is reachable here) and imports it
// into a test containerd: one layer with /bin/busybox and its applet links, a config with the
// given command, digests computed here, the image name in the index annotation.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Containerd } from './containerd.ts';

const applets = ['sh', 'echo', 'sleep', 'cat', 'ls', 'true', 'false', 'httpd', 'nc', 'wget', 'env', 'touch', 'test', 'kill', 'ps', 'id', 'mkdir', 'date'];

const run = (cmd: string, args: string[]) => new Promise<void>((resolve, reject) => execFile(cmd, args, err => (err ? reject(err) : resolve())));
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export function busyboxSkipReason(): string | undefined {
  return existsSync('/bin/busybox') ? undefined : 'busybox-static not installed (apt-get install busybox-static)';
}

/** builds the image as an OCI archive and imports it under each name */
export async function importBusyboxImage(containerd: Containerd, names: string[], cmd: string[] = ['sh']): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-image-'));
  try {
    const rootfs = join(dir, 'rootfs');
    await mkdir(join(rootfs, 'bin'), { recursive: true });
    for (const d of ['tmp', 'etc', 'proc', 'sys', 'dev']) await mkdir(join(rootfs, d));
    await copyFile('/bin/busybox', join(rootfs, 'bin/busybox'));
    for (const a of applets) await symlink('busybox', join(rootfs, 'bin', a));
    const layerTar = join(dir, 'layer.tar');
    await run('tar', ['--numeric-owner', '--owner=0', '--group=0', '-C', rootfs, '-cf', layerTar, '.']);
    const layer = await readFile(layerTar);
    const layerDigest = sha256(layer);

    const layout = join(dir, 'layout');
    const blobs = join(layout, 'blobs/sha256');
    await mkdir(blobs, { recursive: true });
    const blob = async (data: Buffer | string) => { const d = sha256(data); await writeFile(join(blobs, d), data); return { digest: `sha256:${d}`, size: Buffer.byteLength(data) }; };
    await writeFile(join(blobs, layerDigest), layer);
    const config = JSON.stringify({
      architecture: process.arch === 'arm64' ? 'arm64' : 'amd64', os: 'linux',
      config: { Cmd: cmd, Env: ['PATH=/bin'], WorkingDir: '/' },
      rootfs: { type: 'layers', diff_ids: [`sha256:${layerDigest}`] },
    });
    const configRef = await blob(config);
    const manifest = JSON.stringify({
      schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...configRef },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: `sha256:${layerDigest}`, size: layer.length }],
    });
    const manifestRef = await blob(manifest);
    await writeFile(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
    await writeFile(join(layout, 'index.json'), JSON.stringify({
      schemaVersion: 2,
      manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifestRef, annotations: { 'io.containerd.image.name': names[0], 'org.opencontainers.image.ref.name': 'latest' } }],
    }));
    const archive = join(dir, 'image.tar');
    await run('tar', ['-C', layout, '-cf', archive, '.']);
    await containerd.ctr(['image', 'import', '--no-unpack=false', archive]);
    for (const extra of names.slice(1)) await containerd.ctr(['image', 'tag', '--force', names[0]!, extra]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
