// A strict reader of the Prometheus text exposition format (0.0.4) for tests: every line is a
// comment (# HELP / # TYPE), blank, or a sample `name{label="value",...} number`; anything else
// fails the test. Samples are checked against their family's TYPE (histogram samples must be
// _bucket/_sum/_count, buckets cumulative and ending in +Inf equal to _count).

import assert from 'node:assert/strict';

export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Exposition { types: Map<string, string>; help: Map<string, string>; samples: Sample[] }

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/;
const labelPair = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/;

function parseLabels(text: string, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  let rest = text;
  while (rest.trim() !== '') {
    const m = labelPair.exec(rest);
    assert.ok(m, `bad labels in ${JSON.stringify(line)}`);
    assert.equal(out[m[1]!], undefined, `label ${m[1]} twice in ${line}`);
    out[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(m[0].length);
  }
  return out;
}

// as Go's strconv.ParseFloat, which Prometheus reads values with: NaN and Inf in any case
function parseValue(v: string, line: string): number {
  const lower = v.toLowerCase();
  if (lower === '+inf' || lower === 'inf') return Infinity;
  if (lower === '-inf') return -Infinity;
  if (lower === 'nan') return NaN;
  const n = Number(v);
  assert.ok(v !== '' && !Number.isNaN(n), `bad value in ${JSON.stringify(line)}`);
  return n;
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return types.get(base) === 'histogram' || types.get(base) === 'summary' ? base : undefined;
}

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
      if (!m) continue; // other comments are allowed
      if (m[1] === 'TYPE') {
        assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(m[3]!), `bad TYPE ${line}`);
        assert.equal(types.has(m[2]!), false, `TYPE of ${m[2]} twice`);
        types.set(m[2]!, m[3]!);
      } else help.set(m[2]!, m[3]!);
      continue;
    }
    const m = sampleLine.exec(line);
    assert.ok(m, `not a sample line: ${JSON.stringify(line)}`);
    const name = m[1]!;
    const family = familyOf(name, types);
    assert.ok(family, `sample ${name} before (or without) its TYPE`);
    if (types.get(family) === 'histogram') assert.ok(name !== family, `histogram ${family} sample without a suffix`);
    samples.push({ name, labels: parseLabels(m[2] ?? '', line), value: parseValue(m[3]!, line) });
  }
  checkHistograms(types, samples);
  return { types, help, samples };
}

/** every histogram series has cumulative buckets ending at +Inf, equal to its _count */
function checkHistograms(types: Map<string, string>, samples: Sample[]): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const bySeries = new Map<string, Sample[]>();
    for (const s of samples.filter(x => x.name === `${family}_bucket`)) {
      const { le, ...rest } = s.labels;
      assert.ok(le !== undefined, `${family}_bucket without le`);
      const key = JSON.stringify(Object.entries(rest).sort());
      bySeries.set(key, [...(bySeries.get(key) ?? []), s]);
    }
    for (const [key, buckets] of bySeries) {
      const values = buckets.map(b => b.value);
      assert.deepEqual(values, [...values].sort((a, b) => a - b), `${family} buckets not cumulative`);
      assert.equal(buckets.at(-1)!.labels.le, '+Inf', `${family} buckets do not end at +Inf`);
      const count = samples.find(x => x.name === `${family}_count` && JSON.stringify(Object.entries(x.labels).sort()) === key);
      assert.equal(count?.value, buckets.at(-1)!.value, `${family}_count differs from its +Inf bucket`);
    }
  }
}

/** the samples of one name whose labels include all of `labels` */
export function find(e: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return e.samples.filter(s => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** the one value of a name and labels; 0 when no such sample */
export function valueOf(e: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = find(e, name, labels);
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}
