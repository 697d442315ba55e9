import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CounterFamily, GaugeFamily, HistogramFamily, exponentialBuckets } from '../../../../src/api/metrics/families.ts';
import { exposition } from '../../../../src/api/metrics/exposition.ts';
import { parsePrometheusText, valueOf } from '../../../support/prom-text.ts';

test('series are found by label values once, and written by prom-client in the text format', async () => {
  const c = new CounterFamily('things_total', 'Things.', ['kind']);
  const a = c.with('a');
  assert.equal(c.with('a'), a, 'the same series object');
  a.value += 2;
  c.with('we"ird\\').value++;
  const h = new HistogramFamily('wait_seconds', 'Waits.', ['op'], [0.1, 1]);
  const s = h.with('x');
  for (const v of [0.05, 0.1, 0.5, 5]) h.observe(s, v);
  const g = new GaugeFamily('level', 'Level.', ['k'], () => [[['v'], 3]]);
  const e = parsePrometheusText((await exposition(() => [c, h, g]).scrape()).body);
  assert.equal(valueOf(e, 'things_total', { kind: 'a' }), 2);
  assert.equal(valueOf(e, 'things_total', { kind: 'we"ird\\' }), 1, 'label values escaped and read back');
  assert.equal(valueOf(e, 'wait_seconds_bucket', { op: 'x', le: '0.1' }), 2, 'a bound holds values equal to it');
  assert.equal(valueOf(e, 'wait_seconds_bucket', { op: 'x', le: '1' }), 3);
  assert.equal(valueOf(e, 'wait_seconds_bucket', { op: 'x', le: '+Inf' }), 4);
  assert.equal(valueOf(e, 'wait_seconds_sum', { op: 'x' }), 5.65);
  assert.equal(valueOf(e, 'level', { k: 'v' }), 3);
  assert.equal(e.types.get('things_total'), 'counter');
  assert.equal(e.help.get('wait_seconds'), 'Waits.');
  assert.ok(e.types.has('process_resident_memory_bytes'), 'Node process metrics beside them');
  assert.throws(() => c.with('a', 'b'), /expected 1 label values/);
});

test('two expositions keep their own registries', async () => {
  const one = new CounterFamily('x_total', 'X.'), two = new CounterFamily('x_total', 'X.');
  one.with().value = 1;
  two.with().value = 5;
  const [e1, e2] = await Promise.all([exposition(() => [one]).scrape(), exposition(() => [two]).scrape()]);
  assert.equal(valueOf(parsePrometheusText(e1.body), 'x_total'), 1);
  assert.equal(valueOf(parsePrometheusText(e2.body), 'x_total'), 5);
});

test('exponential buckets as Prometheus makes them', () => {
  assert.deepEqual(exponentialBuckets(1, 2, 4), [1, 2, 4, 8]);
});
