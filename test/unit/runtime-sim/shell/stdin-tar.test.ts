// What the sim's programs do with standard input and bytes: cat and head read it, an
// interactive sh runs it line by line, tar writes and reads archives byte for byte (as
// `kubectl cp` drives it), sha256sum hashes what tar stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { SimProcess } from '../../../../src/runtime-sim/process.ts';
import { SimInput } from '../../../../src/runtime-sim/stdin.ts';
import { argvCommand } from '../../../../src/runtime-sim/shell/parse.ts';
import { tarArchive } from '../../../../src/api/tar.ts';
import { fakeClock } from '../../agent/fake-clock.ts';

async function run(argv: string[], input?: Buffer | string, files = new Map<string, string>(), tty = false) {
  const chunks: Buffer[] = [];
  let err = '';
  let stdin: SimInput | undefined;
  if (input !== undefined) {
    const src = new PassThrough();
    stdin = new SimInput(src);
    src.end(input);
  }
  const p = new SimProcess({ env: { HOSTNAME: 'pod' }, files, unknownCommand: 'succeed', clock: fakeClock(), stdin, tty,
    output: async (s, d) => { if (s === 'stdout') chunks.push(typeof d === 'string' ? Buffer.from(d) : d); else err += String(d); } });
  const status = await p.run(argvCommand(argv));
  return { status, out: Buffer.concat(chunks), err, files };
}

test('cat and head read standard input; head stops at what it was asked for', async () => {
  assert.equal((await run(['cat'], 'a\nb\n')).out.toString(), 'a\nb\n');
  assert.equal((await run(['head', '-c', '3'], 'abcdef')).out.toString(), 'abc');
  assert.equal((await run(['head', '-n', '1'], 'one\ntwo\n')).out.toString(), 'one\n');
  assert.equal((await run(['cat'])).out.toString(), '', 'no input attached: nothing to read');
});

test('an interactive sh runs its input a line at a time and ends with exit', async () => {
  const r = await run(['sh'], 'echo hi $HOSTNAME\nexit 3\necho never\n');
  assert.deepEqual([r.status, r.out.toString()], [3, 'hi pod\n']);
  const t = await run(['sh'], 'echo x\n', undefined, true);
  assert.equal(t.out.toString(), '/ # echo x\r\nx\n/ # ', 'on a terminal: prompts, and the line echoed');
});

test('tar: an archive in is the same bytes out, as GNU tar reads and writes them', async () => {
  const data = randomBytes(100_000);
  const archive = tarArchive([{ name: 'dir/blob', data, mtime: 0 }]);
  const files = new Map<string, string>();
  assert.equal((await run(['tar', '-xmf', '-', '-C', '/tmp'], archive, files)).status, 0);
  const sum = (await run(['sha256sum', '/tmp/dir/blob'], undefined, files)).out.toString();
  assert.equal(sum, `${createHash('sha256').update(data).digest('hex')}  /tmp/dir/blob\n`);
  const out = await run(['tar', 'cf', '-', '/tmp/dir'], undefined, files);
  assert.equal(out.err, "tar: removing leading '/' from member names\n");
  const listed = execFileSync('tar', ['-tvf', '-'], { input: out.out }).toString();
  assert.match(listed, /tmp\/dir\/blob/);
  assert.deepEqual(execFileSync('tar', ['-xOf', '-', 'tmp/dir/blob'], { input: out.out }), data);
  assert.equal((await run(['tar', 'cf', '-', '/nowhere'], undefined, files)).status, 1);
});
