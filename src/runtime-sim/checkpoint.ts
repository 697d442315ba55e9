// A container checkpoint as an archive at the requested location: what the container is
// (config.dump), how it runs (spec.dump), its state (status.dump) and the files it wrote
// (rootfs-diff.tar). The sim has no memory image to dump: how long the main process slept
// stands for it (restore.ts replays the program up to there).

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SimContainer } from './container.ts';
import { tarArchive } from '../api/tar.ts';
import { rfc3339Nano } from '../api/time.ts';

export async function writeCheckpoint(c: SimContainer, location: string, nowMs: number): Promise<void> {
  const cfg = c.spec.config;
  const mtime = nowMs / 1000;
  const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
  const config = {
    id: c.id,
    name: cfg.metadata?.name ?? '',
    rootfsImage: c.spec.imageName,
    rootfsImageRef: c.spec.image.id,
    rootfsImageName: c.spec.imageName,
    runtime: 'orch-runtime-sim',
    createdTime: rfc3339Nano(c.createdAt / 1e6),
    checkpointedTime: rfc3339Nano(nowMs),
  };
  const spec = {
    ociVersion: '1.1.0',
    process: {
      args: [...(cfg.command ?? []), ...(cfg.args ?? [])],
      env: Object.entries(c.spec.env).map(([k, v]) => `${k}=${v}`),
      cwd: cfg.workingDir || '/',
    },
    hostname: c.spec.env.HOSTNAME ?? '',
    annotations: {
      ...cfg.annotations,
      'io.kubernetes.cri.container-type': 'container',
      'io.kubernetes.cri.container-name': cfg.metadata?.name ?? '',
      'io.kubernetes.cri.sandbox-id': c.spec.sandboxId,
      'io.kubernetes.cri.image-name': c.spec.imageName,
    },
    mounts: (cfg.mounts ?? []).map(m => ({ destination: m.containerPath, source: m.hostPath, type: 'bind' })),
    linux: { resources: c.resources ?? {} },
  };
  const status = { state: c.state, startedAt: c.startedAt, exitCode: c.exitCode, logPath: c.spec.logPath, sleptMs: c.sleptMs() };
  // what the container wrote; the files the runtime mounts in (/etc/hostname) are not its own
  const rootfs = tarArchive([...c.files].filter(([path]) => !c.mounted.has(path)).map(([path, data]) => ({ name: path.replace(/^\/+/, ''), data, mtime })));
  const archive = tarArchive([
    { name: 'config.dump', data: json(config), mtime },
    { name: 'spec.dump', data: json(spec), mtime },
    { name: 'status.dump', data: json(status), mtime },
    { name: 'rootfs-diff.tar', data: rootfs, mtime },
  ]);
  await mkdir(dirname(location), { recursive: true });
  // whole or not at all: a reader never sees half an archive
  const tmp = `${location}.tmp-${process.pid}-${c.id.slice(0, 12)}`;
  // every memory page of the container would be in a real one: root only (spec 2.4)
  await writeFile(tmp, archive, { mode: 0o600 });
  await rename(tmp, location);
}
