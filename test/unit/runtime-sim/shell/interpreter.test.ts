import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SimProcess } from '../../../../src/runtime-sim/process.ts';
import { argvCommand, parseScript } from '../../../../src/runtime-sim/shell/parse.ts';
import { ShellSyntaxError } from '../../../../src/runtime-sim/shell/tokens.ts';
import { fakeClock } from '../../agent/fake-clock.ts';

async function sh(script: string, env: Record<string, string> = {}) {
  let out = '';
  const files = new Map<string, string>();
  const p = new SimProcess({ env, files, unknownCommand: 'succeed', clock: fakeClock(), output: async (s, t) => { out += s === 'stdout' ? t : `[err]${t}`; } });
  const status = await p.run(argvCommand(['sh', '-c', script]));
  return { status, out, files };
}

test('sequences, && and ||, ! and $?', async () => {
  assert.deepEqual(await sh('echo a; false; echo $?'), { status: 0, out: 'a\n1\n', files: new Map() });
  assert.equal((await sh('true && echo yes || echo no')).out, 'yes\n');
  assert.equal((await sh('false && echo yes || echo no')).out, 'no\n');
  assert.equal((await sh('! false && echo negated')).out, 'negated\n');
  assert.equal((await sh('false || false')).status, 1);
  assert.equal((await sh('exit 300')).status, 44, 'exit codes are taken mod 256');
  assert.equal((await sh('echo before; exit 2; echo after')).out, 'before\n');
});

test('quoting, parameters and redirections', async () => {
  assert.equal((await sh(`echo 'single $X' "double $X" \${X}y plain\\ word`, { X: 'v' })).out, 'single $X double v vy plain word\n');
  assert.equal((await sh('echo $UNSET x "$UNSET" y')).out, 'x  y\n', 'an unquoted empty expansion vanishes, a quoted one stays');
  const r = await sh('echo one > /tmp/f; echo two >> /tmp/f; cd /tmp; echo three >> f; echo err 2>/dev/null >&2; echo hidden > /dev/null; cat f');
  assert.equal(r.out, 'one\ntwo\nthree\n');
  assert.equal(r.files.get('/tmp/f'), 'one\ntwo\nthree\n');
  assert.equal((await sh('echo e >&2; echo o 2>&1')).out, '[err]e\no\n');
});

test('loops and conditionals', async () => {
  assert.equal((await sh('for i in a b c; do echo $i; done')).out, 'a\nb\nc\n');
  assert.equal((await sh('if [ 3 -gt 2 ]; then echo big; elif true; then echo no; else echo no; fi')).out, 'big\n');
  assert.equal((await sh('if test -n ""; then echo no; else echo empty; fi')).out, 'empty\n');
  assert.equal((await sh('touch /a; while [ -f /a ]; do echo once; rm /a; done; until true; do echo never; done')).out, 'once\n');
  assert.equal((await sh('{ echo grouped; false; }; echo $?')).out, 'grouped\n1\n');
});

test('what the sim cannot follow is a syntax error to the parser', () => {
  for (const script of ['a | b', 'echo $(date)', 'echo `date`', 'cat < f', '(sub)', 'if true; then echo', 'echo "open']) {
    assert.throws(() => parseScript(script), ShellSyntaxError, script);
  }
});

test('sleep waits on the clock; as PID 1 SIGTERM does nothing to it, nor to a shell without a trap; a daemon ends with 143; SIGKILL with 137; a trap runs', async () => {
  const clock = fakeClock();
  const make = () => new SimProcess({ env: {}, files: new Map(), unknownCommand: 'daemon', clock, output: async () => {} });
  const sleeper = make();
  const slept = sleeper.run(argvCommand(['sleep', '1m']));
  await clock.advance(59_999);
  let done = false;
  void slept.then(() => { done = true; });
  await clock.advance(0);
  assert.equal(done, false);
  await clock.advance(1);
  assert.equal(await slept, 0);

  const pid1 = make();
  const t0 = pid1.run(argvCommand(['sh', '-c', 'sleep 10; exit 4']));
  await clock.advance(0);
  pid1.signal('TERM');
  await clock.advance(10_000);
  assert.equal(await t0, 4, 'no handler, no default action for PID 1');

  const termed = make();
  const t1 = termed.run(argvCommand(['/usr/sbin/some-daemon']));
  await clock.advance(0);
  termed.signal('TERM');
  assert.equal(await t1, 143);

  const trapped = make();
  const tt = trapped.run(argvCommand(['sh', '-c', 'trap "echo bye; exit 3" TERM; while true; do sleep 1; done']));
  await clock.advance(0);
  trapped.signal('TERM');
  await clock.advance(1000);
  assert.equal(await tt, 3);

  const ignoring = make();
  const t2 = ignoring.run(argvCommand(['sh', '-c', "trap '' TERM; sleep 10; exit 5"]));
  await clock.advance(0);
  ignoring.signal('TERM');
  await clock.advance(10_000);
  assert.equal(await t2, 5);

  const killed = make();
  const t3 = killed.run(argvCommand(['sh', '-c', "trap '' TERM; sleep 10"]));
  await clock.advance(0);
  killed.signal('KILL');
  assert.equal(await t3, 137);
});

test('assignments and $(( )) arithmetic, as a counter in a loop uses them', async () => {
  assert.equal((await sh('i=0; for x in a b c; do i=$((i+1)); done; echo $i')).out, '3\n');
  assert.equal((await sh('a=7 b=3; echo $(( (a + b) * 2 - a % b )) $((a / b)) $(( -$a ))')).out, '19 2 -7\n');
  assert.equal((await sh('n=$((x+5)); echo $n')).out, '5\n', 'an unset variable counts as 0');
  assert.deepEqual(await sh('echo a; z=$((1/0)); echo b'), { status: 2, out: 'a\n', files: new Map() });
  assert.throws(() => parseScript('echo $((1 ^ 2))'), ShellSyntaxError);
});
