// A bookmark promises that every change up to its resourceVersion has been sent: a client that
// resumes from it gets only what comes after. Bookmarks used to carry the store's current
// revision while events below it were still queued in the watch cache, so a client resuming
// from one lost those events (found by `orch check watch`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../../support/fake-request.ts';

const cms = '/api/v1/namespaces/default/configmaps';

test('no event arrives after a bookmark at or above its resourceVersion, under a stream of writes', async t => {
  const api = await testApi();
  t.after(() => api.close());
  api.deps.bookmarkIntervalMs = 2;
  const start = (await api.request('GET', cms)).json().metadata.resourceVersion;
  const ac = new AbortController();
  const watching = api.request('GET', `${cms}?watch=1&allowWatchBookmarks=true&resourceVersion=${start}`, { signal: ac.signal });
  let written = 0;
  const writer = async (w: number) => {
    for (let i = 0; i < 60; i++) {
      const r = await api.request('POST', cms, { body: { metadata: { name: `w${w}-${i}` } } });
      assert.equal(r.status, 201);
      written++;
    }
  };
  await Promise.all([0, 1, 2, 3].map(writer));
  await new Promise(r => setTimeout(r, 100));
  ac.abort();
  const events = (await watching).text().trim().split('\n').map(l => JSON.parse(l));
  let bookmarked = 0;
  let last = 0;
  for (const e of events) {
    const rv = Number(e.object.metadata.resourceVersion);
    if (e.type === 'BOOKMARK') { bookmarked++; assert.ok(rv >= last, `bookmark at ${rv} after an event at ${last}`); last = rv; continue; }
    assert.ok(rv > last, `${e.type} ${e.object.metadata.name} at ${rv} after ${last} was sent (as an event or bookmark)`);
    last = rv;
  }
  assert.equal(events.filter(e => e.type === 'ADDED').length, written);
  assert.ok(bookmarked > 0, 'bookmarks were sent');
});
