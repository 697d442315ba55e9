// An OCI image archive (an image layout in a tar) made from a few files: what `ctr images import`
// and `orch images import` load. Used for the images orch needs on a machine that reaches no
// registry (the pause image of an embedded containerd).

import { createHash } from 'node:crypto';
import { tarArchive, type TarEntry } from '../../api/tar.ts';

export interface ImageSpec {
  /** the name the image is imported under, e.g. "orch.local/pause:1" */
  name: string;
  /** regular files (data) and symbolic links (linkTo) */
  files: Array<{ path: string; data?: Buffer; mode?: number; linkTo?: string }>;
  entrypoint?: string[];
  cmd?: string[];
  /** GOARCH spelling: amd64, arm64 */
  architecture: string;
  /** PATH and other variables (default PATH=/bin:/) */
  env?: string[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function ociArchive(spec: ImageSpec): Buffer {
  // a fixed time, so that the same files make the same digests
  const mtime = 0;
  const layer = tarArchive(spec.files.map(f => ({ name: f.path, data: f.data ?? '', mode: f.mode, linkTo: f.linkTo, mtime })));
  const config = Buffer.from(JSON.stringify({
    architecture: spec.architecture, os: 'linux',
    config: { Entrypoint: spec.entrypoint, Cmd: spec.cmd, Env: spec.env ?? ['PATH=/bin:/'], WorkingDir: '/' },
    rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(layer)}`] },
  }));
  const manifest = Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${sha256(config)}`, size: config.length },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: `sha256:${sha256(layer)}`, size: layer.length }],
  }));
  const index = JSON.stringify({
    schemaVersion: 2,
    manifests: [{
      mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: `sha256:${sha256(manifest)}`, size: manifest.length,
      annotations: { 'io.containerd.image.name': spec.name, 'org.opencontainers.image.ref.name': spec.name.split(':').at(-1) },
    }],
  });
  const entries: TarEntry[] = [
    { name: 'oci-layout', data: JSON.stringify({ imageLayoutVersion: '1.0.0' }), mtime },
    { name: 'index.json', data: index, mtime },
    ...[layer, config, manifest].map(b => ({ name: `blobs/sha256/${sha256(b)}`, data: b, mtime })),
  ];
  return tarArchive(entries);
}
