import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { exposition, preloadPromClient } from '../../../../src/api/metrics/exposition.ts';
import { CounterFamily } from '../../../../src/api/metrics/families.ts';

const require = createRequire(import.meta.url);
const promClientPath = require.resolve('prom-client');

test('prom-client is not loaded with the exposition, and preloading it leaves the scrape unchanged', async () => {
  const requests = new CounterFamily('x_requests_total', 'Requests.', ['code']);
  requests.with('200').value = 3;
  const e = exposition(() => [requests]);
  assert.equal(require.cache[promClientPath], undefined, 'making an exposition loads nothing');
  preloadPromClient();
  assert.ok(require.cache[promClientPath], 'loaded ahead of the first scrape');
  const { contentType, body } = await e.scrape();
  assert.match(contentType, /^text\/plain; version=0\.0\.4/);
  assert.match(body, /^x_requests_total\{code="200"\} 3$/m);
  assert.match(body, /^process_cpu_user_seconds_total /m, 'default metrics start with the first scrape');
});

test('the process\'s CPU is counted from its start, as Go\'s process collector counts it, not from the first scrape', async () => {
  const spent = process.cpuUsage();
  const { body } = await exposition(() => []).scrape();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(body)?.[1]);
  assert.ok(value('process_cpu_user_seconds_total') >= spent.user / 1e6, body);
  assert.ok(value('process_cpu_system_seconds_total') >= spent.system / 1e6);
  assert.ok(value('process_cpu_seconds_total') >= (spent.user + spent.system) / 1e6);
});
