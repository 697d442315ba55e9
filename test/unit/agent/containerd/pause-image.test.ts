import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pauseImage, pauseImageArchive, pauseProgram } from '../../../../src/agent/containerd/pause-image.ts';

test('the pause program sleeps until it is killed', { skip: process.arch !== 'x64' && 'orch has a pause program for x64 only' }, async t => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-pause-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bin = join(dir, 'pause');
  writeFileSync(bin, pauseProgram('x64')!);
  chmodSync(bin, 0o755);
  const child = spawn(bin, [], { stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>(r => child.once('exit', (_code, signal) => r(signal)));
  const early = await Promise.race([exited.then(() => 'exited'), new Promise(r => setTimeout(() => r('running'), 300))]);
  assert.equal(early, 'running');
  // asleep in the kernel, not spinning
  assert.match(readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!, /^S /);
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL');
  assert.equal(pauseProgram('riscv64'), undefined);
});

test('the pause image archive is an OCI layout whose blobs match their digests', { skip: process.arch !== 'x64' && 'x64 only' }, t => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-pause-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'image.tar'), pauseImageArchive('x64')!);
  execFileSync('tar', ['-xf', join(dir, 'image.tar'), '-C', dir]);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'oci-layout'), 'utf8')), { imageLayoutVersion: '1.0.0' });
  const blobs = join(dir, 'blobs/sha256');
  for (const name of readdirSync(blobs)) assert.equal(createHash('sha256').update(readFileSync(join(blobs, name))).digest('hex'), name);
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  assert.equal(index.manifests[0].annotations['io.containerd.image.name'], pauseImage);
  const manifest = JSON.parse(readFileSync(join(blobs, index.manifests[0].digest.slice(7)), 'utf8'));
  const config = JSON.parse(readFileSync(join(blobs, manifest.config.digest.slice(7)), 'utf8'));
  assert.deepEqual([config.architecture, config.os, config.config.Entrypoint], ['amd64', 'linux', ['/pause']]);
  const layer = join(blobs, manifest.layers[0].digest.slice(7));
  assert.equal(config.rootfs.diff_ids[0], manifest.layers[0].digest);
  assert.equal(execFileSync('tar', ['-tvf', layer], { encoding: 'utf8' }).trim().split(/\s+/)[0], '-rwxr-xr-x');
  // the same bytes every time, so the image is imported once
  assert.deepEqual(pauseImageArchive('x64'), pauseImageArchive('x64'));
});
