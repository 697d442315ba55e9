import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { criLogParser } from '../../../src/agent/logs/cri-log.ts';
import { LogOptionsError, parseLogOptions } from '../../../src/agent/logs/log-options.ts';
import { streamLogs } from '../../../src/agent/logs/stream-logs.ts';

const rec = (t: string, stream: string, tag: string, text: string) => `2026-11-23T10:00:0${t}.000000001Z ${stream} ${tag} ${text}\n`;

test('CRI log records become lines: partial records joined, streams kept, malformed lines skipped', () => {
  const p = criLogParser();
  const first = p.push(rec('1', 'stdout', 'P', 'hel') + rec('1', 'stdout', 'F', 'lo') + 'garbage\n' + rec('2', 'stderr', 'F', 'oops') + rec('3', 'stdout', 'F', ''));
  assert.deepEqual(first, [
    { time: '2026-11-23T10:00:01.000000001Z', stream: 'stdout', text: 'hello' },
    { time: '2026-11-23T10:00:02.000000001Z', stream: 'stderr', text: 'oops' },
    { time: '2026-11-23T10:00:03.000000001Z', stream: 'stdout', text: '' },
  ]);
  assert.deepEqual(p.push('2026-11-23T10:00:04Z stdout F spl'), []);
  assert.deepEqual(p.push('it\n').map(l => l.text), ['split']);
});

test('log options are read as the kubelet reads them', () => {
  const q = (s: string) => parseLogOptions(new URLSearchParams(s), Date.parse('2026-11-23T10:00:10Z'));
  assert.deepEqual(q('follow=true&tailLines=2&timestamps=1'), { follow: true, previous: false, timestamps: true, tailLines: 2 });
  // booleans: false only for 0, f and false; the old `tail` parameter; `tail=all` is every line
  assert.deepEqual(q('follow=yes&previous=False&timestamps=f&tail=3'), { follow: true, previous: false, timestamps: false, tailLines: 3 });
  assert.equal(q('tailLines=3&tail=all').tailLines, undefined);
  assert.equal(q('sinceSeconds=5').since, Date.parse('2026-11-23T10:00:05Z'));
  assert.equal(q('sinceTime=2026-11-23T10:00:01Z').since, Date.parse('2026-11-23T10:00:01Z'));
  const fails = (s: string, code: number, message: string) => assert.throws(() => q(s), (e: unknown) => e instanceof LogOptionsError && e.code === code && e.message === message);
  fails('tailLines=-1', 422, '{"message": "Invalid request."}');
  fails('limitBytes=0', 422, '{"message": "Invalid request."}');
  fails('sinceSeconds=5&sinceTime=2026-11-23T10:00:00Z', 422, '{"message": "Invalid request."}');
  fails('tailLines=x', 400, '{"message": "Unable to decode query."}');
  fails('sinceTime=yesterday', 400, '{"message": "Unable to decode query."}');
});

test('streaming: tail, since, timestamps, limitBytes, and follow until the container stops', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-logs-'));
  try {
    const file = join(dir, '0.log');
    await writeFile(file, rec('1', 'stdout', 'F', 'one') + rec('2', 'stdout', 'F', 'two') + rec('3', 'stderr', 'F', 'three'));
    const collect = async (o: Parameters<typeof parseLogOptions>[0], running = () => false) => {
      const out = new PassThrough();
      let text = '';
      out.on('data', d => { text += d; });
      await streamLogs(file, parseLogOptions(o, Date.parse('2026-11-23T10:00:10Z')), running, { out, closed: () => false }, 20);
      return text;
    };
    assert.equal(await collect(new URLSearchParams('')), 'one\ntwo\nthree\n');
    assert.equal(await collect(new URLSearchParams('tailLines=2')), 'two\nthree\n');
    assert.equal(await collect(new URLSearchParams('sinceTime=2026-11-23T10:00:02Z')), 'two\nthree\n');
    assert.equal(await collect(new URLSearchParams('tailLines=1&timestamps=true')), '2026-11-23T10:00:03.000000001Z three\n');
    assert.equal(await collect(new URLSearchParams('limitBytes=6')), 'one\ntw');
    let running = true;
    const following = collect(new URLSearchParams('follow=true&tailLines=0'), () => running);
    await new Promise(r => setTimeout(r, 50));
    await appendFile(file, rec('4', 'stdout', 'F', 'four'));
    await new Promise(r => setTimeout(r, 50));
    await appendFile(file, rec('5', 'stdout', 'F', 'five'));
    running = false;
    assert.equal(await following, 'four\nfive\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a last line without a newline (a P record nothing continues, as containerd writes it) is shown as it is, with or without follow', async () => {
  const p = criLogParser();
  assert.deepEqual(p.push(rec('1', 'stdout', 'F', 'one') + rec('2', 'stdout', 'P', 'no newline')), [{ time: '2026-11-23T10:00:01.000000001Z', stream: 'stdout', text: 'one' }]);
  assert.deepEqual(p.end(), [{ time: '2026-11-23T10:00:02.000000001Z', stream: 'stdout', text: 'no newline', partial: true }]);
  assert.deepEqual(p.end(), []);
  const dir = await mkdtemp(join(tmpdir(), 'orch-logs-'));
  try {
    const file = join(dir, '0.log');
    await writeFile(file, rec('1', 'stdout', 'F', 'one') + rec('2', 'stdout', 'P', 'no newline'));
    const collect = async (q: string) => {
      const out = new PassThrough();
      let text = '';
      out.on('data', d => { text += d; });
      await streamLogs(file, parseLogOptions(new URLSearchParams(q), Date.parse('2026-11-23T10:00:10Z')), () => false, { out, closed: () => false }, 20);
      return text;
    };
    assert.equal(await collect(''), 'one\nno newline');
    assert.equal(await collect('tailLines=1&timestamps=true'), '2026-11-23T10:00:02.000000001Z no newline');
    assert.equal(await collect('follow=true'), 'one\nno newline', 'the stream of a stopped container ends with it');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
