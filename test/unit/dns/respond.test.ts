// Messages in and out: malformed queries, opcodes, EDNS sizes and truncation (TC) as miekg/dns
// truncates for CoreDNS; forwarding through real sockets (UDP, then TCP after TC) with the cache.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as packet from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import { respond, shuffleAddresses, type Responder } from '../../../src/dns/respond.ts';
import { ClusterIndex, serviceView, sliceView } from '../../../src/dns/cluster-index.ts';
import { Forwarder } from '../../../src/dns/forwarder.ts';
import { AnswerCache } from '../../../src/dns/answer-cache.ts';
import { listenDns } from '../../../src/dns/server.ts';

function responder(forward: Responder['forward'] = async () => undefined): Responder {
  const index = new ClusterIndex(() => 1);
  index.setService(serviceView({ metadata: { name: 'many', namespace: 'default' }, spec: { clusterIP: 'None', ports: [{ name: 'p', port: 1, protocol: 'TCP' }] } }));
  index.setSlice(sliceView({ metadata: { name: 'many-1', namespace: 'default', labels: { 'kubernetes.io/service-name': 'many' } }, ports: [{ name: 'p', port: 1, protocol: 'TCP' }], endpoints: Array.from({ length: 60 }, (_, i) => ({ addresses: [`10.99.0.${i + 1}`] })) })!);
  index.synced = true;
  return { zone: { index, podMode: 'insecure', zone: 'cluster.local', ttl: 5, localIPs: [], upstream: async () => undefined }, forward };
}

const query = (name: string, extra: Partial<packet.Packet> = {}) => packet.encode({ type: 'query', id: 4242, flags: packet.RECURSION_DESIRED, questions: [{ name, type: 'A', class: 'IN' }], ...extra });
type Decoded = DecodedPacket & { rcode: string; flag_tc: boolean; flag_aa: boolean; flag_rd: boolean; flag_ra: boolean };
const decode = (b: Buffer | undefined) => packet.decode(b!) as Decoded;

test('garbage: FORMERR when the header can be read, nothing when it cannot; responses are not answered', async () => {
  const bad = Buffer.concat([query('x.cluster.local').subarray(0, 12), Buffer.from([0xff, 0xff, 0xff])]);
  const r = decode(await respond(responder(), bad, true));
  assert.equal(r.id, 4242);
  assert.equal(r.rcode, 'FORMERR');
  assert.equal(await respond(responder(), Buffer.from([1, 2, 3]), true), undefined);
  assert.equal(await respond(responder(), packet.encode({ type: 'response', id: 1, questions: [] }), true), undefined);
});

test('other opcodes are NOTIMP; no question or two are FORMERR', async () => {
  assert.equal(decode(await respond(responder(), packet.encode({ type: 'query', id: 1, flags: 2 << 11, questions: [{ name: 'a', type: 'A' }] }), true)).rcode, 'NOTIMP');
  assert.equal(decode(await respond(responder(), packet.encode({ type: 'query', id: 1, questions: [] }), true)).rcode, 'FORMERR');
  assert.equal(decode(await respond(responder(), packet.encode({ type: 'query', id: 1, questions: [{ name: 'a', type: 'A' }, { name: 'b', type: 'A' }] }), true)).rcode, 'FORMERR');
});

test('UDP replies fit 512 bytes (or the EDNS size asked): records left out and TC set; TCP takes them whole', async () => {
  const small = await respond(responder(), query('many.default.svc.cluster.local'), true);
  const r = decode(small);
  assert.ok(small!.length <= 512);
  assert.equal(r.flag_tc, true);
  assert.equal(r.flag_aa, true);
  assert.ok(r.answers!.length > 0 && r.answers!.length < 60);
  const whole = decode(await respond(responder(), query('many.default.svc.cluster.local'), false));
  assert.equal(whole.flag_tc, false);
  assert.equal(whole.answers!.length, 60);
  const edns = decode(await respond(responder(), query('many.default.svc.cluster.local', { additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 4096 } as any] }), true));
  assert.equal(edns.flag_tc, false);
  assert.equal(edns.answers!.length, 60);
  assert.equal(edns.additionals!.find(a => a.type === 'OPT')?.type, 'OPT');
});

test('names outside the zone: the forwarder\'s answer with its flags; SERVFAIL when no upstream answers', async () => {
  const fwd = decode(await respond(responder(async q => ({ ...q, type: 'response', flags: packet.RECURSION_AVAILABLE, flag_ra: true, rcode: 'NOERROR', answers: [{ name: 'example.com', type: 'A', class: 'IN', ttl: 60, data: '192.0.2.1' }] }) as any), query('example.com'), true));
  assert.equal(fwd.rcode, 'NOERROR');
  assert.equal(fwd.flag_ra, true);
  assert.equal(fwd.flag_aa, false);
  assert.equal(fwd.flag_rd, true);
  assert.deepEqual(fwd.answers!.map(a => (a as any).data), ['192.0.2.1']);
  assert.equal(decode(await respond(responder(), query('example.com'), true)).rcode, 'SERVFAIL');
});

test('the forwarder: UDP, TCP after a truncated reply, answers cached with their TTLs lowered by age', async t => {
  const asked: string[] = [];
  const upstream = await listenDns('127.0.0.1', 0, async (msg, udp) => {
    const q = packet.decode(msg);
    asked.push(udp ? 'udp' : 'tcp');
    const answers = Array.from({ length: 40 }, (_, i) => ({ name: q.questions![0]!.name, type: 'A' as const, class: 'IN' as const, ttl: 20, data: `192.0.2.${i + 1}` }));
    const full = packet.encode({ type: 'response', id: q.id, flags: packet.RECURSION_AVAILABLE, questions: q.questions, answers });
    return udp ? packet.encode({ type: 'response', id: q.id, flags: packet.RECURSION_AVAILABLE | packet.TRUNCATED_RESPONSE, questions: q.questions, answers: answers.slice(0, 3) }) : full;
  }, () => undefined);
  t.after(() => upstream.close());
  let now = 1_000_000;
  const fwd = new Forwarder({ servers: [{ host: '127.0.0.1', port: upstream.port }], cache: new AnswerCache({ nowMs: () => now }) });
  const first = await fwd.resolve('big.example', 'A');
  assert.equal(first?.length, 40);
  assert.deepEqual(asked, ['udp', 'tcp']);
  now += 7_000;
  const again = await fwd.resolve('BIG.example', 'A');
  assert.equal(again?.length, 40);
  assert.equal((again![0] as any).ttl, 13);
  assert.deepEqual(asked, ['udp', 'tcp'], 'from the cache');
  now += 14_000;
  await fwd.resolve('big.example', 'A');
  assert.deepEqual(asked, ['udp', 'tcp', 'udp', 'tcp'], 'expired after the TTL');
  // nobody listening: undefined, quickly
  const dead = new Forwarder({ servers: [{ host: '127.0.0.1', port: 9 }], timeoutMs: 300 });
  assert.equal(await dead.resolve('x.example', 'A'), undefined);
});

test('the cache keeps denials for the SOA\'s negative TTL, at most 30 s, and never truncated or failed answers', () => {
  let now = 0;
  const c = new AnswerCache({ nowMs: () => now });
  const soa = { name: 'example', type: 'SOA', class: 'IN', ttl: 3600, data: { mname: 'a', rname: 'b', serial: 1, refresh: 1, retry: 1, expire: 1, minimum: 600 } };
  c.put('nx', { type: 'response', id: 1, flags: 3, rcode: 'NXDOMAIN', questions: [], answers: [], authorities: [soa], additionals: [] } as any);
  c.put('tc', { type: 'response', id: 1, flags: 0x200, flag_tc: true, rcode: 'NOERROR', questions: [], answers: [{ name: 'a', type: 'A', ttl: 60, data: '1.2.3.4' }], authorities: [], additionals: [] } as any);
  c.put('sf', { type: 'response', id: 1, flags: 2, rcode: 'SERVFAIL', questions: [], answers: [], authorities: [], additionals: [] } as any);
  assert.ok(c.get('nx'));
  assert.equal(c.get('tc'), undefined);
  assert.equal(c.get('sf'), undefined);
  now = 29_999;
  assert.ok(c.get('nx'));
  now = 30_000;
  assert.equal(c.get('nx'), undefined);
});

test('addresses come in a random order, CNAMEs first, as the loadbalance plugin shuffles them', () => {
  const answers: any[] = [{ name: 'x', type: 'CNAME', data: 'y' }, ...Array.from({ length: 5 }, (_, i) => ({ name: 'y', type: 'A', data: `10.0.0.${i}` }))];
  const orders = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const out = shuffleAddresses(answers);
    assert.equal(out[0].type, 'CNAME');
    assert.deepEqual(out.map((a: any) => a.data).sort(), answers.map(a => a.data).sort());
    orders.add(out.map((a: any) => a.data).join());
  }
  assert.ok(orders.size > 1);
});
