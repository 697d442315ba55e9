// The cluster zone's answers as data: every record kind, NXDOMAIN against NODATA, case, headless
// Services, ExternalName, reverse names, as CoreDNS's kubernetes plugin answers them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Answer, Question } from 'dns-packet';
import { answerQuestion, type ZoneOptions } from '../../../src/dns/answer.ts';
import { ClusterIndex, serviceView, sliceView } from '../../../src/dns/cluster-index.ts';

function cluster(): ClusterIndex {
  const idx = new ClusterIndex(() => 1700000000);
  const svc = (name: string, ns: string, spec: any) => idx.setService(serviceView({ metadata: { name, namespace: ns }, spec }));
  svc('web', 'default', { clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.20'], ports: [{ name: 'http', port: 80, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }] });
  svc('db', 'default', { clusterIP: 'None', ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] });
  svc('empty', 'default', { clusterIP: 'None', ports: [{ name: 'x', port: 1, protocol: 'TCP' }] });
  svc('noports', 'default', { clusterIP: 'None' });
  svc('ext', 'default', { type: 'ExternalName', externalName: 'example.com' });
  svc('alias', 'default', { type: 'ExternalName', externalName: 'web.default.svc.cluster.local' });
  svc('kube-dns', 'kube-system', { clusterIP: '10.96.0.10', ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }] });
  const slice = (name: string, ns: string, service: string, ports: any[], endpoints: any[]) =>
    idx.setSlice(sliceView({ metadata: { name, namespace: ns, labels: { 'kubernetes.io/service-name': service } }, ports, endpoints })!);
  slice('web-abc', 'default', 'web', [{ name: 'http', port: 8080, protocol: 'TCP' }], [{ addresses: ['10.42.0.5'], conditions: { ready: true } }]);
  slice('db-abc', 'default', 'db', [{ name: 'pg', port: 5432, protocol: 'TCP' }], [
    { addresses: ['10.42.0.7'], hostname: 'db-0', conditions: { ready: true } },
    { addresses: ['10.42.0.8'], hostname: 'db-1', conditions: { ready: true } },
    { addresses: ['10.42.0.9'], hostname: 'db-2', conditions: { ready: false } },
  ]);
  slice('empty-abc', 'default', 'empty', [{ name: 'x', port: 1, protocol: 'TCP' }], [{ addresses: ['10.42.0.11'], conditions: { ready: false } }]);
  slice('noports-abc', 'default', 'noports', [], [{ addresses: ['10.42.0.12'] }]);
  slice('kube-dns', 'kube-system', 'kube-dns', [{ name: 'dns', port: 53, protocol: 'UDP' }], [{ addresses: ['10.42.0.1'], conditions: { ready: true } }]);
  idx.synced = true;
  return idx;
}

const upstreamAsked: string[] = [];
function options(over: Partial<ZoneOptions> = {}): ZoneOptions {
  return {
    index: cluster(), podMode: 'insecure', zone: 'cluster.local', ttl: 5, localIPs: ['10.42.0.1'],
    async upstream(name, type) { upstreamAsked.push(`${name} ${type}`); return name === 'example.com' && type === 'A' ? [{ name: 'example.com', type: 'A', class: 'IN', ttl: 300, data: '93.184.215.14' }] : []; },
    ...over,
  };
}

const ask = (name: string, type: Question['type'], o = options()) => answerQuestion(o, { name, type, class: 'IN' });
const data = (list: Answer[]) => list.map(a => `${a.name} ${(a as any).ttl} ${a.type} ${typeof (a as any).data === 'object' ? JSON.stringify((a as any).data) : (a as any).data}`);
const soa = 'cluster.local 5 SOA {"mname":"ns.dns.cluster.local","rname":"hostmaster.cluster.local","serial":1700000000,"refresh":7200,"retry":1800,"expire":86400,"minimum":5}';

test('a ClusterIP Service answers its ClusterIP, authoritatively, with TTL 5', async () => {
  const r = await ask('web.default.svc.cluster.local', 'A');
  assert.equal(r?.rcode, 'NOERROR');
  assert.equal(r?.authoritative, true);
  assert.deepEqual(data(r!.answers), ['web.default.svc.cluster.local 5 A 10.96.0.20']);
  assert.deepEqual(r!.authorities, []);
});

test('names match whatever their case, and answers keep the case asked', async () => {
  const r = await ask('WEB.Default.SVC.Cluster.Local', 'A');
  assert.deepEqual(data(r!.answers), ['WEB.Default.SVC.Cluster.Local 5 A 10.96.0.20']);
  const n = await ask('nothere.default.svc.CLUSTER.local', 'A');
  assert.equal(n?.rcode, 'NXDOMAIN');
  assert.equal(n!.authorities[0].name, 'CLUSTER.local');
});

test('NODATA (NOERROR, no answers, the SOA) for a name without records of the type; NXDOMAIN for a name not there', async () => {
  for (const [name, type] of [['web.default.svc.cluster.local', 'AAAA'], ['web.default.svc.cluster.local', 'MX'], ['web.default.svc.cluster.local', 'TXT'],
    ['web.default.svc.cluster.local', 'CNAME'], ['cluster.local', 'A'], ['svc.cluster.local', 'A'], ['pod.cluster.local', 'A'],
    ['default.svc.cluster.local', 'A'], ['any-namespace.svc.cluster.local', 'A'], ['web.default.svc.cluster.local', 'SOA'],
    ['nothere.default.svc.cluster.local', 'SOA'], ['noports.default.svc.cluster.local', 'SRV']] as const) {
    const r = await ask(name, type);
    assert.equal(r?.rcode, 'NOERROR', `${name} ${type}`);
    assert.deepEqual(r!.answers, [], `${name} ${type}`);
    assert.deepEqual(data(r!.authorities), [soa], `${name} ${type}`);
  }
  for (const [name, type] of [['nothere.default.svc.cluster.local', 'A'], ['nothere.default.svc.cluster.local', 'AAAA'], ['nothere.default.svc.cluster.local', 'TXT'],
    ['web.cluster.local', 'A'], ['a.b.web.default.svc.cluster.local', 'A'], ['x.y.z.web.default.svc.cluster.local', 'A'],
    ['db-9.db.default.svc.cluster.local', 'A'], ['_nope._tcp.web.default.svc.cluster.local', 'SRV'], ['empty.default.svc.cluster.local', 'A'],
    ['not-an-ip.default.pod.cluster.local', 'A']] as const) {
    const r = await ask(name, type);
    assert.equal(r?.rcode, 'NXDOMAIN', `${name} ${type}`);
    assert.deepEqual(data(r!.authorities), [soa], `${name} ${type}`);
  }
});

test('a ClusterIP Service not yet given its address exists without records (NODATA)', async () => {
  const o = options();
  o.index.setService(serviceView({ metadata: { name: 'new', namespace: 'default' }, spec: { ports: [{ name: 'http', port: 80 }] } }));
  const r = await ask('new.default.svc.cluster.local', 'A', o);
  assert.equal(r?.rcode, 'NOERROR');
  assert.deepEqual(r!.answers, []);
  assert.equal((await ask('_other._tcp.new.default.svc.cluster.local', 'SRV', o))?.rcode, 'NXDOMAIN');
});

test('before the informers have listed, a missing name is SERVFAIL rather than NXDOMAIN', async () => {
  const o = options();
  o.index.synced = false;
  assert.equal((await ask('nothere.default.svc.cluster.local', 'A', o))?.rcode, 'SERVFAIL');
  assert.equal((await ask('web.default.svc.cluster.local', 'A', o))?.rcode, 'NOERROR');
});

test('a headless Service answers its ready endpoints; not-ready ones only once the slice says ready (publishNotReadyAddresses)', async () => {
  const r = await ask('db.default.svc.cluster.local', 'A');
  assert.deepEqual(data(r!.answers), ['db.default.svc.cluster.local 5 A 10.42.0.7', 'db.default.svc.cluster.local 5 A 10.42.0.8']);
  const o = options();
  // the EndpointSlice controller marks every endpoint ready for a Service publishing not-ready addresses
  o.index.setSlice(sliceView({ metadata: { name: 'db-abc', namespace: 'default', labels: { 'kubernetes.io/service-name': 'db' } }, ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }], endpoints: [{ addresses: ['10.42.0.9'], hostname: 'db-2', conditions: { ready: true } }] })!);
  assert.deepEqual(data((await ask('db.default.svc.cluster.local', 'A', o))!.answers), ['db.default.svc.cluster.local 5 A 10.42.0.9']);
  assert.deepEqual(data((await ask('noports.default.svc.cluster.local', 'A'))!.answers), ['noports.default.svc.cluster.local 5 A 10.42.0.12']);
});

test('endpoint names: hostname.subdomain (StatefulSet pods) and dashed addresses, also under a ClusterIP Service', async () => {
  assert.deepEqual(data((await ask('db-1.db.default.svc.cluster.local', 'A'))!.answers), ['db-1.db.default.svc.cluster.local 5 A 10.42.0.8']);
  assert.deepEqual(data((await ask('10-42-0-5.web.default.svc.cluster.local', 'A'))!.answers), ['10-42-0-5.web.default.svc.cluster.local 5 A 10.42.0.5']);
  assert.equal((await ask('db-2.db.default.svc.cluster.local', 'A'))?.rcode, 'NXDOMAIN');
});

test('SRV: named ports of a ClusterIP Service, per endpoint for a headless one, addresses in the additional section', async () => {
  let r = await ask('_http._tcp.web.default.svc.cluster.local', 'SRV');
  assert.deepEqual(data(r!.answers), ['_http._tcp.web.default.svc.cluster.local 5 SRV {"priority":0,"weight":100,"port":80,"target":"web.default.svc.cluster.local"}']);
  assert.deepEqual(data(r!.additionals), ['web.default.svc.cluster.local 5 A 10.96.0.20']);
  r = await ask('web.default.svc.cluster.local', 'SRV');
  assert.deepEqual(data(r!.answers), [
    'web.default.svc.cluster.local 5 SRV {"priority":0,"weight":50,"port":80,"target":"web.default.svc.cluster.local"}',
    'web.default.svc.cluster.local 5 SRV {"priority":0,"weight":50,"port":9090,"target":"web.default.svc.cluster.local"}',
  ]);
  r = await ask('_pg._TCP.db.default.svc.cluster.local', 'SRV');
  assert.deepEqual(data(r!.answers), [
    '_pg._TCP.db.default.svc.cluster.local 5 SRV {"priority":0,"weight":50,"port":5432,"target":"db-0.db.default.svc.cluster.local"}',
    '_pg._TCP.db.default.svc.cluster.local 5 SRV {"priority":0,"weight":50,"port":5432,"target":"db-1.db.default.svc.cluster.local"}',
  ]);
  assert.deepEqual(data(r!.additionals), ['db-0.db.default.svc.cluster.local 5 A 10.42.0.7', 'db-1.db.default.svc.cluster.local 5 A 10.42.0.8']);
  assert.equal((await ask('_pg._udp.db.default.svc.cluster.local', 'SRV'))?.rcode, 'NXDOMAIN');
  // an ExternalName has no SRV, and no port names under it
  assert.deepEqual((await ask('ext.default.svc.cluster.local', 'SRV'))!.answers, []);
  assert.equal((await ask('_http._tcp.ext.default.svc.cluster.local', 'SRV'))?.rcode, 'NXDOMAIN');
});

test('ExternalName: a CNAME, with the target resolved in the zone or by the host resolvers', async () => {
  upstreamAsked.length = 0;
  let r = await ask('ext.default.svc.cluster.local', 'A');
  assert.deepEqual(data(r!.answers), ['ext.default.svc.cluster.local 5 CNAME example.com', 'example.com 300 A 93.184.215.14']);
  assert.deepEqual(upstreamAsked, ['example.com A']);
  r = await ask('alias.default.svc.cluster.local', 'A');
  assert.deepEqual(data(r!.answers), ['alias.default.svc.cluster.local 5 CNAME web.default.svc.cluster.local', 'web.default.svc.cluster.local 5 A 10.96.0.20']);
  r = await ask('ext.default.svc.cluster.local', 'CNAME');
  assert.deepEqual(data(r!.answers), ['ext.default.svc.cluster.local 5 CNAME example.com']);
  // the host's resolvers failing: no CNAME alone, NODATA
  r = await ask('ext.default.svc.cluster.local', 'A', options({ upstream: async () => undefined }));
  assert.equal(r?.rcode, 'NOERROR');
  assert.deepEqual(r!.answers, []);
});

test('pod records: a-b-c-d.namespace.pod.zone (insecure: any address; verified: a pod of that namespace has it; disabled)', async () => {
  assert.deepEqual(data((await ask('10-42-0-99.default.pod.cluster.local', 'A'))!.answers), ['10-42-0-99.default.pod.cluster.local 5 A 10.42.0.99']);
  assert.deepEqual(data((await ask('fd00--1.default.pod.cluster.local', 'AAAA'))!.answers), ['fd00--1.default.pod.cluster.local 5 AAAA fd00::1']);
  const o = options({ podMode: 'verified' });
  o.index.addPodIPs('default', ['10.42.0.5'], 1);
  assert.equal((await ask('10-42-0-5.default.pod.cluster.local', 'A', o))?.answers.length, 1);
  assert.equal((await ask('10-42-0-5.other.pod.cluster.local', 'A', o))?.rcode, 'NXDOMAIN');
  o.index.addPodIPs('default', ['10.42.0.5'], -1);
  assert.equal((await ask('10-42-0-5.default.pod.cluster.local', 'A', o))?.rcode, 'NXDOMAIN');
  assert.equal((await ask('10-42-0-5.default.pod.cluster.local', 'A', options({ podMode: 'disabled' })))?.rcode, 'NXDOMAIN');
});

test('PTR: ClusterIPs name their Service, endpoint addresses their endpoint; unknown addresses go to the host resolvers', async () => {
  assert.deepEqual(data((await ask('20.0.96.10.in-addr.arpa', 'PTR'))!.answers), ['20.0.96.10.in-addr.arpa 5 PTR web.default.svc.cluster.local']);
  assert.deepEqual(data((await ask('8.0.42.10.in-addr.arpa', 'PTR'))!.answers), ['8.0.42.10.in-addr.arpa 5 PTR db-1.db.default.svc.cluster.local']);
  assert.deepEqual(data((await ask('5.0.42.10.IN-ADDR.ARPA', 'PTR'))!.answers), ['5.0.42.10.IN-ADDR.ARPA 5 PTR 10-42-0-5.web.default.svc.cluster.local']);
  assert.equal(await ask('9.0.42.10.in-addr.arpa', 'PTR'), undefined);
  assert.equal(await ask('1.1.168.192.in-addr.arpa', 'PTR'), undefined);
  assert.equal(await ask('example.com', 'A'), undefined);
});

test('the apex: SOA, NS naming the kube-dns Service holding this server with its ClusterIP, dns-version TXT', async () => {
  assert.deepEqual(data((await ask('cluster.local', 'SOA'))!.answers), [soa]);
  const ns = await ask('cluster.local', 'NS');
  assert.deepEqual(data(ns!.answers), ['cluster.local 5 NS kube-dns.kube-system.svc.cluster.local']);
  assert.deepEqual(data(ns!.additionals), ['kube-dns.kube-system.svc.cluster.local 5 A 10.96.0.10']);
  assert.deepEqual(data((await ask('ns.dns.cluster.local', 'A'))!.answers), ['ns.dns.cluster.local 5 A 10.96.0.10']);
  // a server no Service names answers with its own address
  const alone = await ask('cluster.local', 'NS', options({ localIPs: ['127.0.0.1'] }));
  assert.deepEqual(data(alone!.additionals), ['ns.dns.cluster.local 5 A 127.0.0.1']);
  assert.deepEqual(data((await ask('dns-version.cluster.local', 'TXT'))!.answers), ['dns-version.cluster.local 28800 TXT 1.1.0']);
  assert.equal((await ask('cluster.local', 'AXFR' as Question['type']))?.rcode, 'REFUSED');
});

test('a changed or deleted Service changes the answers and the SOA serial', async () => {
  let now = 1700000000;
  const o = options();
  o.index = cluster();
  (o.index as any).nowSeconds = () => now;
  now += 60;
  o.index.deleteService('default', 'web');
  assert.equal((await ask('web.default.svc.cluster.local', 'A', o))?.rcode, 'NXDOMAIN');
  assert.equal((await ask('cluster.local', 'SOA', o))!.answers[0].type === 'SOA' && ((await ask('cluster.local', 'SOA', o))!.answers[0] as any).data.serial, 1700000060);
});
