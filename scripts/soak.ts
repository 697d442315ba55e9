// npm run soak -- [--minutes N] [--only PART] [--seed S]: the reliability suite's parts against
// real servers for N minutes (not in CI; the suite's request-fuzz test is its short slice), all
// at once, with a progress line per part every 10 s and a summary at the end. A part is one row
// of the table below (scripts/soak/part.ts says what it is).

import { parseArgs } from 'node:util';
import type { RunningPart, SoakPart } from './soak/part.ts';
import { fuzzPart } from './soak/fuzz-part.ts';
import { killCyclesPart, watchCheckPart } from '../test/support/soak-parts.ts';

const parts: SoakPart[] = [
  fuzzPart,
  killCyclesPart('sqlite'),
  killCyclesPart('etcd'),
  watchCheckPart,
];

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' }, only: { type: 'string', multiple: true }, seed: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`usage: npm run soak -- [--minutes N] [--only PART]... [--seed S]
  runs every part (or those named) for N minutes (default 5), printing each part's figures every 10 s
  and a summary at the end; exits 1 if any part failed. Parts:
${parts.map(p => `    ${p.name.padEnd(12)} ${p.about}`).join('\n')}`);
  process.exit(0);
}
const minutes = Number(values.minutes);
if (!(minutes > 0)) { console.error(`--minutes must be a positive number, not ${JSON.stringify(values.minutes)}`); process.exit(2); }
const unknown = (values.only ?? []).filter(name => !parts.some(p => p.name === name));
if (unknown.length) { console.error(`no such part: ${unknown.join(', ')} (parts: ${parts.map(p => p.name).join(', ')})`); process.exit(2); }
const chosen = values.only ? parts.filter(p => values.only!.includes(p.name)) : parts;
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s`;
const log = (line: string) => console.log(`${elapsed()}  ${line}`);
log(`soak: ${chosen.map(p => p.name).join(', ')} for ${minutes} min, seed ${seed}`);

const running = new Map<string, RunningPart>();
const ticker = setInterval(() => { for (const [name, run] of running) log(`${name}: ${run.status()}`); }, 10_000);
const results = await Promise.all(chosen.map(async part => {
  try {
    const run = await part.start({ until: started + minutes * 60_000, seed, log: line => log(`${part.name}: ${line}`) });
    running.set(part.name, run);
    const summary = await run.done;
    return { part, ok: true, summary };
  } catch (err) {
    return { part, ok: false, summary: (err as Error).message };
  } finally {
    running.delete(part.name);
  }
}));
clearInterval(ticker);

console.log(`\nsummary (${elapsed().trim()}, seed ${seed}):`);
for (const r of results) console.log(`  ${r.ok ? 'ok    ' : 'FAILED'} ${r.part.name}: ${r.summary}`);
process.exit(results.every(r => r.ok) ? 0 : 1);
