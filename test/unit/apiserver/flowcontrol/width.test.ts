import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateSeats } from '../../../../src/apiserver/flowcontrol/width.ts';
import { objectCounter } from '../../../../src/apiserver/flowcontrol/object-count.ts';
import { parseRequestInfo } from '../../../../src/apiserver/request-info.ts';

const counts: Record<string, number> = { '/pods': 450, 'apps/deployments': 5000, '/configmaps': 3 };
const count = (g: string, r: string) => counts[`${g}/${r}`];

function seats(method: string, url: string, levelMax = 0): number {
  const [path, q = ''] = url.split('?');
  const query = new URLSearchParams(q);
  return estimateSeats(parseRequestInfo(method, path!, query), query, count, levelMax);
}

test('a list takes a seat per hundred objects it goes through, between 1 and 10', () => {
  assert.equal(seats('GET', '/api/v1/pods'), 5, '450 pods from the cache');
  assert.equal(seats('GET', '/api/v1/namespaces/default/pods'), 5, 'a namespace\'s list still goes through the resource');
  assert.equal(seats('GET', '/apis/apps/v1/deployments'), 10, '5000 objects: capped at 10');
  assert.equal(seats('GET', '/apis/apps/v1/deployments', 3), 3, 'and at the level\'s widest');
  assert.equal(seats('GET', '/api/v1/configmaps'), 1, 'never below one');
  assert.equal(seats('GET', '/api/v1/pods?limit=50'), 5, 'a first page from the cache still goes through everything');
  assert.equal(seats('GET', '/api/v1/pods?limit=50&continue=abc'), 1, 'a continued page from storage: twice the page');
  assert.equal(seats('GET', '/api/v1/pods?limit=300&continue=abc'), 6, 'twice 300');
  assert.equal(seats('GET', '/api/v1/pods?limit=50&continue=abc&labelSelector=app%3Dx'), 5, 'with a selector: everything scanned plus the page');
  assert.equal(seats('GET', '/api/v1/pods?limit=x'), 10, 'options that do not parse: the most');
  assert.equal(seats('GET', '/apis/example.com/v1/widgets'), 1, 'a resource not counted here (an extension server\'s): the least');
});

test('writes, gets and plain watches take one seat; a watch with initial events costs its list', () => {
  assert.equal(seats('POST', '/api/v1/namespaces/default/pods'), 1);
  assert.equal(seats('DELETE', '/api/v1/namespaces/default/pods'), 1);
  assert.equal(seats('GET', '/api/v1/namespaces/default/pods/p'), 1);
  assert.equal(seats('GET', '/api/v1/pods?watch=true'), 1);
  assert.equal(seats('GET', '/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan'), 5);
});

test('object counts come from the cache\'s prefixes, read at most once a second', () => {
  let now = 0;
  let reads = 0;
  let pods = 7;
  const c = objectCounter(() => { reads++; return [{ prefix: '/registry/pods/', objects: pods }, { prefix: '/registry/deployments.apps/', objects: 2 }]; }, () => now);
  assert.equal(c('', 'pods'), 7);
  assert.equal(c('apps', 'deployments'), 2);
  assert.equal(c('', 'secrets'), undefined);
  pods = 9;
  assert.equal(c('', 'pods'), 7);
  now = 1000;
  assert.equal(c('', 'pods'), 9);
  assert.equal(reads, 2);
});
