import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tarArchive } from '../../../src/api/tar.ts';

test('tar: files, directories and symbolic links as GNU tar reads them back', t => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-tar-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const long = `${'d'.repeat(120)}/file`;
  writeFileSync(join(dir, 'a.tar'), tarArchive([
    { name: 'bin/', data: '', mtime: 0 },
    { name: 'bin/tool', data: Buffer.from('#!/bin/sh\n'), mode: 0o755, mtime: 1_700_000_000 },
    { name: 'bin/alias', data: '', linkTo: 'tool', mtime: 0 },
    { name: long, data: 'deep', mtime: 0 },
  ]));
  assert.deepEqual(execFileSync('tar', ['-tf', join(dir, 'a.tar')], { encoding: 'utf8' }).trim().split('\n'), ['bin/', 'bin/tool', 'bin/alias', long]);
  execFileSync('tar', ['-xf', join(dir, 'a.tar'), '-C', dir]);
  assert.equal(statSync(join(dir, 'bin')).isDirectory(), true);
  assert.equal(statSync(join(dir, 'bin/tool')).mode & 0o777, 0o755);
  assert.equal(statSync(join(dir, 'bin/tool')).mtimeMs, 1_700_000_000_000);
  assert.equal(readlinkSync(join(dir, 'bin/alias')), 'tool');
  assert.equal(readFileSync(join(dir, long), 'utf8'), 'deep');
});
