// Watches under load: many watchers each see every event of a write storm in order with no gap
// and no duplicate (checked against the server's own history), and a watcher that stops
// reading is cut off without holding up writers or other watchers.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { rawClient, type RawClient } from './support/raw-client.ts';

let orch: OrchProcess;
let c: RawClient;
let session: http2.ClientHttp2Session;
let connect: () => http2.ClientHttp2Session;

before(async () => {
  // no kube-root-ca.crt publisher: the watchers count the configmaps this test alone writes
  orch = await startOrch({ args: ['--controllers', '*,-root-ca-certificate-publisher-controller'] });
  c = rawClient(orch.kubeconfig);
  const kc = parse(readFileSync(orch.kubeconfig, 'utf8'));
  const b = (s: string) => Buffer.from(s, 'base64');
  connect = () => http2.connect(orch.url, {
    ca: b(kc.clusters[0].cluster['certificate-authority-data']),
    cert: b(kc.users[0].user['client-certificate-data']),
    key: b(kc.users[0].user['client-key-data']),
  });
  session = connect();
});
after(async () => { session.close(); await orch.stop(); await orch.cleanup(); });

interface H2Watch { events: Array<{ type: string; object: any }>; stream: http2.ClientHttp2Stream; ended: Promise<void> }

function h2watch(path: string, read = true, over: http2.ClientHttp2Session = session): H2Watch {
  const stream = over.request({ ':path': path });
  const events: H2Watch['events'] = [];
  let buf = '';
  stream.setEncoding('utf8');
  if (read) {
    stream.on('data', (d: string) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) { events.push(JSON.parse(buf.slice(0, i))); buf = buf.slice(i + 1); }
    });
  }
  const ended = new Promise<void>(r => { stream.on('end', () => r()); stream.on('close', () => r()); });
  return { events, stream, ended };
}

async function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 20));
  }
}

test('200 watchers see all 400 events of a write storm, in order, exactly once', async () => {
  const ns = '/api/v1/namespaces/default/configmaps';
  const start = (await c.request('GET', ns)).json().metadata.resourceVersion;
  const watchers = Array.from({ length: 200 }, () => h2watch(`${ns}?watch=1&resourceVersion=${start}`));
  await new Promise(r => setTimeout(r, 300));
  const acked: number[] = [];
  await Promise.all(Array.from({ length: 10 }, async (_, w) => {
    for (let i = 0; i < 40; i++) {
      const r = await c.request('POST', ns, { body: JSON.stringify({ metadata: { name: `s-${w}-${i}` } }) });
      assert.equal(r.status, 201);
      acked.push(Number(r.json().metadata.resourceVersion));
    }
  }));
  acked.sort((a, b) => a - b);
  await until(() => watchers.every(w => w.events.length >= 400), 20_000, 'every watcher to see 400 events');
  for (const w of watchers) {
    const revs = w.events.map(e => Number(e.object.metadata.resourceVersion));
    assert.deepEqual(revs, acked, 'the history exactly, in order');
    w.stream.close();
  }
});

test('a watcher that stops reading is cut off; the others and the writers go on', async () => {
  const ns = '/api/v1/namespaces/default/configmaps';
  const start = (await c.request('GET', ns)).json().metadata.resourceVersion;
  // its own connection: HTTP/2 flow control would otherwise stall its neighbours client-side
  const own = connect();
  const slow = h2watch(`${ns}?watch=1&resourceVersion=${start}`, false, own);
  slow.stream.pause();
  const fast = h2watch(`${ns}?watch=1&resourceVersion=${start}`);
  const big = 'x'.repeat(700 * 1024);
  for (let i = 0; i < 30; i++) {
    const r = await c.request('POST', ns, { body: JSON.stringify({ metadata: { name: `big-${i}` }, data: { v: big } }) });
    assert.equal(r.status, 201);
  }
  await until(() => fast.events.length >= 30, 20_000, `the reading watcher (${fast.events.length}) ${orch.stderr().slice(-500)}`);
  // still behind after the grace period: the next event cuts it off
  await new Promise(r => setTimeout(r, 5500));
  assert.equal((await c.request('POST', ns, { body: JSON.stringify({ metadata: { name: 'trigger' } }) })).status, 201);
  await until(() => fast.events.length >= 31, 5000, 'the reading watcher to see the last event');
  // let the slow one drain: it must end before it has seen everything
  let seen = 0;
  slow.stream.on('data', (d: string) => { seen += (d.match(/\n/g) ?? []).length; });
  slow.stream.resume();
  await slow.ended;
  assert.ok(seen < 31, `the slow watcher was cut off (saw ${seen} of 31)`);
  fast.stream.close();
  own.close();
});
