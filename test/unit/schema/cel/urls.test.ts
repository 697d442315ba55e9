// Kubernetes' CEL URL library: Go's url.ParseRequestURI reading.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from './eval.ts';

test('getters answer as Go url.URL does', () => {
  const u = "url('https://user@example.com:8443/a%20b/c?x=1&x=2&y')";
  assert.equal(evaluate(`${u}.getScheme()`), 'https');
  assert.equal(evaluate(`${u}.getHost()`), 'example.com:8443');
  assert.equal(evaluate(`${u}.getHostname()`), 'example.com');
  assert.equal(evaluate(`${u}.getPort()`), '8443');
  assert.equal(evaluate(`${u}.getEscapedPath()`), '/a%20b/c');
  assert.deepEqual(evaluate(`${u}.getQuery()`), { x: ['1', '2'], y: [''] });
  assert.equal(evaluate("url('https://example.com').getPort()"), '');
  assert.equal(evaluate("url('https://[::1]:80/').getHost()"), '[::1]:80');
  assert.equal(evaluate("url('https://[::1]:80/').getHostname()"), '::1');
  assert.equal(evaluate("url('/just/a/path').getHost()"), '');
});

test('isURL and url() refuse what is not a request URI', () => {
  assert.equal(evaluate("isURL('https://example.com/x')"), true);
  assert.equal(evaluate("isURL('/x')"), true);
  assert.equal(evaluate("isURL('example.com')"), false);
  assert.equal(evaluate("isURL('mailto:a@b')"), false);
  assert.deepEqual(evaluate("url('example.com')"), { error: 'URL parse error during conversion from string: parse "example.com": invalid URI for request' });
});
