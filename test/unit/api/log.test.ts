// The log formats byte for byte: klog's text lines as klog's own output tests and documentation
// show them (quoting, multi-line values, JSON for the rest, repeated keys, the header), the JSON
// lines as component-base's tests show them, and which calls each verbosity lets through.

import { test } from 'node:test';
import assert from 'node:assert/strict';

process.env.TZ = 'UTC'; // klog's header is in local time: fix it for the expected lines
const { createLogger } = await import('../../../src/api/log.ts');
const { quote, textHeader } = await import('../../../src/api/log-text.ts');

// 2026-11-27 19:31:13.999385 UTC, in milliseconds
const at = Date.UTC(2026, 10, 27, 19, 31, 13, 999) + 0.385;

function capture(threshold: Parameters<typeof createLogger>[0], format: 'text' | 'json' = 'text') {
  const lines: string[] = [];
  const log = createLogger(threshold, l => lines.push(l), { format, now: () => at, pid: 4242 });
  return { log, lines };
}

/** the line of this file a call sits on, for the expected file:line */
function here(): number {
  return Number(/log\.test\.ts:(\d+)/.exec(new Error().stack!.split('\n')[2]!)![1]);
}

test('text: the header is klog\'s: severity, mmdd, microseconds, the pid right-aligned in 7, file:line', () => {
  const { log, lines } = capture('warn');
  const line = here() + 1;
  log.warn('disk nearly full', { node: 'n1' });
  assert.deepEqual(lines, [`W1127 19:31:13.999385    4242 log.test.ts:${line}] "disk nearly full" node="n1"\n`]);
  assert.equal(textHeader('E', Date.UTC(2026, 0, 2, 3, 4, 5, 6), 1, 'x.ts', 7), 'E0102 03:04:05.006000       1 x.ts:7] ');
});

test('text: values as klog writes them', () => {
  const { log, lines } = capture('info');
  const body = (l: string) => l.slice(l.indexOf('] ') + 2);
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['test', { akey: 'avalue' }, '"test" akey="avalue"\n'],
    ['test', { akey: '<&>' }, '"test" akey="<&>"\n'],
    ['"quoted"', { key: '"quoted value"' }, '"\\"quoted\\"" key="\\"quoted value\\""\n'],
    ['slices', { s: ['hello', 'world'], i: [1, 2, 3] }, '"slices" s=["hello","world"] i=[1,2,3]\n'],
    ['maps', { s: { hello: 'world' }, i: { 1: 2, 3: 4 } }, '"maps" s={"hello":"world"} i={"1":2,"3":4}\n'],
    ['structs', { s: { Name: 'worker', Kind: 'pod' } }, '"structs" s={"Name":"worker","Kind":"pod"}\n'],
    ['test', { err: new Error('whoops') }, '"test" err="whoops"\n'],
    ['n', { count: 3, ratio: 0.25, big: 12345678901234567890n, ok: true, none: null, tiny: 1e-7 }, '"n" count=3 ratio=0.25 big=12345678901234567890 ok=true none=null tiny=1e-7\n'],
    // Go's json.Encoder escapes HTML characters inside structured values, not in plain strings
    ['html', { o: { a: '<b>&' } }, '"html" o={"a":"\\u003cb\\u003e\\u0026"}\n'],
    ['tabs\tand\x01', { k: 'caf\u00e9 \u00a0 \u200b \u{1f600}' }, '"tabs\\tand\\x01" k="café \\u00a0 \\u200b 😀"\n'],
    ['bytes', { b: Buffer.from('hi\n\u00e9') }, '"bytes" b="hi\\n\\u00e9"\n'],
    ['undefined fields are left out', { a: undefined, b: 1 }, '"undefined fields are left out" b=1\n'],
  ];
  for (const [msg, fields] of cases) log.info(msg, fields);
  assert.deepEqual(lines.map(body), cases.map(c => c[2]));
});

test('text: a value with line breaks is a block of tab-indented lines closed by " >"', () => {
  const { log, lines } = capture('warn');
  log.warn('request error', { stack: 'Error: boom\n    at f (x.ts:1:2)', after: 1 });
  log.warn('ends in a break', { out: 'one\ntwo\n' });
  log.warn('the message\nstays quoted');
  const body = (l: string) => l.slice(l.indexOf('] ') + 2);
  assert.deepEqual(lines.map(body), [
    '"request error" stack=<\n\tError: boom\n\t    at f (x.ts:1:2)\n > after=1\n',
    '"ends in a break" out=<\n\tone\n\ttwo\n >\n',
    '"the message\\nstays quoted"\n',
  ]);
});

test('text: an error call puts err first, then the logger\'s pairs, then the call\'s; a repeated key is kept once', () => {
  const { log, lines } = capture('info');
  const body = (l: string) => l.slice(l.indexOf('] ') + 2);
  const pod = log.with({ pod: 'kube-system/dns', node: 'n1' });
  pod.error('sync failed', { attempt: 2, err: new Error('timeout') });
  pod.info('same value again', { pod: 'kube-system/dns', x: 1 });
  pod.info('changed value', { pod: 'default/web', x: 1 });
  pod.with({ node: 'n2' }).info('with twice');
  assert.deepEqual(lines.map(body), [
    '"sync failed" err="timeout" pod="kube-system/dns" node="n1" attempt=2\n',
    '"same value again" pod="kube-system/dns" node="n1" x=1\n',
    '"changed value" node="n1" pod="default/web" x=1\n',
    '"with twice" pod="kube-system/dns" node="n2"\n',
  ]);
  assert.match(lines[0]!, /^E1127 /);
});

test('text: a value JSON cannot encode says so in klog\'s words', () => {
  const { log, lines } = capture('info');
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  log.info('cycle', { list: cyclic, n: NaN });
  assert.equal(lines[0]!.slice(lines[0]!.indexOf('] ') + 2), '"cycle" list="<internal error: json: unsupported value: encountered a cycle>" n="<internal error: json: unsupported value: NaN>"\n');
});

test('quote: Go\'s strconv.Quote, and QuoteToASCII for bytes', () => {
  assert.equal(quote('plain'), '"plain"');
  assert.equal(quote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(quote('\x07\x08\x0b\x0c\r\x1b\x7f'), '"\\a\\b\\v\\f\\r\\x1b\\x7f"');
  assert.equal(quote('\u0085\u2028\ufeff'), '"\\u0085\\u2028\\ufeff"');
  assert.equal(quote('日本 😀', true), '"\\u65e5\\u672c \\U0001f600"');
});

test('json: component-base\'s fields: ts in milliseconds, caller dir/file:line, msg, v, pairs; errors without v and with err last', () => {
  const { log, lines } = capture('debug', 'json');
  const line = here() + 2;
  const l = log.with({ component: 'scheduler' });
  l.info('hello world');
  l.debug('details', { pod: { name: 'pod-1', namespace: 'kube-system' }, n: 2 });
  l.warn('careful', { err: 'a warning keeps err in place', after: true });
  l.error('wrong namespace', { err: new Error('invalid namespace:default'), ns: 'default', podnum: 2 });
  l.error('failed');
  const caller = `"caller":"api/log.test.ts:`;
  assert.deepEqual(lines, [
    `{"ts":${at},${caller}${line}","msg":"hello world","component":"scheduler","v":1}\n`,
    `{"ts":${at},${caller}${line + 1}","msg":"details","component":"scheduler","v":4,"pod":{"name":"pod-1","namespace":"kube-system"},"n":2}\n`,
    `{"ts":${at},${caller}${line + 2}","msg":"careful","component":"scheduler","v":0,"err":"a warning keeps err in place","after":true}\n`,
    `{"ts":${at},${caller}${line + 3}","msg":"wrong namespace","component":"scheduler","ns":"default","podnum":2,"err":"invalid namespace:default"}\n`,
    `{"ts":${at},${caller}${line + 4}","msg":"failed","component":"scheduler"}\n`,
  ]);
  assert.equal(JSON.parse(lines[0]!).ts, 1795807873999.385);
});

test('verbosity: errors and warnings at 0, info from 1, debug from 4; the level \'error\' shows errors only', () => {
  const seen = (threshold: Parameters<typeof createLogger>[0]) => {
    const { log, lines } = capture(threshold);
    log.error('e'); log.warn('w'); log.info('i'); log.debug('d');
    return { letters: lines.map(l => l[0] + l.slice(l.indexOf('] ') + 3, -2)).join(' '), enabled: (['error', 'warn', 'info', 'debug'] as const).filter(x => log.enabled(x)).join(',') };
  };
  assert.deepEqual(seen(0), { letters: 'Ee Ww', enabled: 'error,warn' });
  assert.deepEqual(seen('warn'), seen(0));
  assert.deepEqual(seen(1), { letters: 'Ee Ww Ii', enabled: 'error,warn,info' });
  assert.deepEqual(seen(3), seen(1));
  assert.deepEqual(seen(4), { letters: 'Ee Ww Ii Id', enabled: 'error,warn,info,debug' });
  assert.deepEqual(seen(10), seen(4));
  assert.deepEqual(seen('debug'), seen(4));
  assert.deepEqual(seen('error'), { letters: 'Ee', enabled: 'error' });
});
