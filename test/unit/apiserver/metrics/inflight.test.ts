import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InflightWatermark } from '../../../../src/apiserver/metrics/inflight.ts';
import { createApiServerMetrics, groupResourceOfPrefix } from '../../../../src/apiserver/metrics/apiserver-metrics.ts';
import { parsePrometheusText, valueOf } from '../../../support/prom-text.ts';

test('the in-flight gauge reports the peak of the window, then starts over from what is in flight', () => {
  let now = 0;
  const w = new InflightWatermark(() => now);
  w.started('readOnly'); w.started('readOnly'); w.started('readOnly'); w.started('mutating');
  w.finished('readOnly'); w.finished('readOnly');
  assert.deepEqual(w.read(), { readOnly: 3, mutating: 1 }, 'the peak, not the 1 still running');
  now = 500;
  assert.deepEqual(w.read(), { readOnly: 3, mutating: 1 }, 'a window shorter than a second goes on');
  now = 1000;
  w.finished('mutating');
  assert.deepEqual(w.read(), { readOnly: 3, mutating: 1 }, 'the closing window still reports its peak');
  assert.deepEqual(w.read(), { readOnly: 1, mutating: 0 }, 'the new window starts from what is in flight');
});

test('storage prefixes name group and resource as Kubernetes prints them', () => {
  assert.deepEqual(groupResourceOfPrefix('/registry/pods/'), { group: '', resource: 'pods', both: 'pods' });
  assert.deepEqual(groupResourceOfPrefix('/registry/deployments.apps/'), { group: 'apps', resource: 'deployments', both: 'deployments.apps' });
  assert.deepEqual(groupResourceOfPrefix('/registry/widgets.example.com/'), { group: 'example.com', resource: 'widgets', both: 'widgets.example.com' });
});

test('storage calls and object counts reach the exposition', async () => {
  const m = createApiServerMetrics();
  m.recordStorage('create', '/registry/deployments.apps/', 0.003, false);
  m.recordStorage('create', '/registry/deployments.apps/', 0.03, true);
  m.countObjects(() => [{ prefix: '/registry/pods/', objects: 7 }]);
  const e = parsePrometheusText((await m.exposition.scrape()).body);
  const labels = { operation: 'create', group: 'apps', resource: 'deployments' };
  assert.equal(valueOf(e, 'etcd_request_duration_seconds_bucket', { ...labels, le: '0.005' }), 1);
  assert.equal(valueOf(e, 'etcd_request_duration_seconds_bucket', { ...labels, le: '0.05' }), 2);
  assert.equal(valueOf(e, 'etcd_request_duration_seconds_count', labels), 2);
  assert.equal(valueOf(e, 'etcd_requests_total', labels), 2);
  assert.equal(valueOf(e, 'etcd_request_errors_total', labels), 1);
  assert.equal(valueOf(e, 'apiserver_storage_objects', { resource: 'pods' }), 7);
  assert.equal(valueOf(e, 'apiserver_resource_objects', { group: '', resource: 'pods' }), 7);
});
