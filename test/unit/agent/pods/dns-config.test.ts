// A pod's resolv.conf settings per dnsPolicy and dnsConfig, and its /etc/hosts, as the kubelet forms them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podDnsConfig, type DnsSettings } from '../../../../src/agent/pods/dns-config.ts';
import { hostNetworkHostsContent, managedHostsContent, podHostnameAndDomain } from '../../../../src/agent/pods/etc-hosts.ts';
import { formatResolvConf, parseResolvConf } from '../../../../src/dns/resolv-conf.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';

const host = parseResolvConf('# the host\nnameserver 192.168.1.1\nnameserver 192.168.1.2\nsearch old.example\nsearch corp.example. lab.example .\noptions timeout:2 ndots:1\noptions timeout:3\n');
const settings: DnsSettings = { clusterDNS: ['10.96.0.10'], clusterDomain: 'cluster.local', hostResolvConf: host, nodeIPs: ['192.168.1.10'] };
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({ metadata: { name: 'web-0', namespace: 'shop', uid: 'u1' }, spec: { containers: [], ...spec } } as unknown as Pod);

test('the host resolv.conf as the kubelet reads it: the last search line, options replaced by name', () => {
  assert.deepEqual(host, { nameservers: ['192.168.1.1', '192.168.1.2'], searches: ['corp.example', 'lab.example'], options: ['timeout:3', 'ndots:1'] });
});

test('ClusterFirst: the cluster DNS, the namespace search paths then the host\'s, ndots:5', () => {
  const { config, warnings } = podDnsConfig(pod(), settings);
  assert.deepEqual(config, { nameservers: ['10.96.0.10'], searches: ['shop.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example', 'lab.example'], options: ['ndots:5'] });
  assert.deepEqual(warnings, []);
  assert.equal(formatResolvConf(config), 'search shop.svc.cluster.local svc.cluster.local cluster.local corp.example lab.example\nnameserver 10.96.0.10\noptions ndots:5\n');
});

test('on the host network ClusterFirst is Default; ClusterFirstWithHostNet keeps the cluster DNS', () => {
  assert.deepEqual(podDnsConfig(pod({ hostNetwork: true }), settings).config, host);
  assert.deepEqual(podDnsConfig(pod({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }), settings).config.nameservers, ['10.96.0.10']);
  assert.deepEqual(podDnsConfig(pod({ dnsPolicy: 'Default' }), settings).config, host);
});

test('Default without a resolvConf file: a nameserver on this machine and the root search', () => {
  assert.deepEqual(podDnsConfig(pod({ dnsPolicy: 'Default' }), { ...settings, hostResolvConf: undefined }).config, { nameservers: ['127.0.0.1'], searches: ['.'], options: [] });
});

test('no cluster DNS configured: Default, with a MissingClusterDNS warning', () => {
  const { config, warnings } = podDnsConfig(pod(), { ...settings, clusterDNS: [] });
  assert.deepEqual(config, host);
  assert.deepEqual(warnings, [['MissingClusterDNS', 'pod: "web-0_shop(u1)". kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.']]);
});

test('None: only the pod\'s dnsConfig; dnsConfig is appended to other policies, options replacing by name', () => {
  const dnsConfig = { nameservers: ['1.1.1.1'], searches: ['example.com', 'svc.cluster.local'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] };
  assert.deepEqual(podDnsConfig(pod({ dnsPolicy: 'None', dnsConfig }), settings).config, { nameservers: ['1.1.1.1'], searches: ['example.com', 'svc.cluster.local'], options: ['ndots:2', 'edns0'] });
  assert.deepEqual(podDnsConfig(pod({ dnsConfig }), settings).config, {
    nameservers: ['10.96.0.10', '1.1.1.1'],
    searches: ['shop.svc.cluster.local', 'svc.cluster.local', 'cluster.local', 'corp.example', 'lab.example', 'example.com'],
    options: ['ndots:2', 'edns0'],
  });
});

test('the limits: 3 nameservers, 32 search paths, 2048 characters, none longer than 253, each cut with a DNSConfigForming warning', () => {
  let r = podDnsConfig(pod({ dnsConfig: { nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9'] } }), settings);
  assert.deepEqual(r.config.nameservers, ['10.96.0.10', '1.1.1.1', '8.8.8.8']);
  assert.deepEqual(r.warnings, [['DNSConfigForming', 'Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: 10.96.0.10 1.1.1.1 8.8.8.8']]);
  const many = Array.from({ length: 40 }, (_, i) => `s${i}.example`);
  r = podDnsConfig(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: many } }), settings);
  assert.equal(r.config.searches.length, 32);
  assert.deepEqual(r.warnings, [['DNSConfigForming', `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${many.slice(0, 32).join(' ')}`]]);
  const long = Array.from({ length: 12 }, (_, i) => `${String(i).padStart(2, '0')}${'a'.repeat(198)}.example`);
  r = podDnsConfig(pod({ dnsPolicy: 'None', dnsConfig: { searches: [...long, `${'b'.repeat(250)}.example`] } }), settings);
  assert.ok(r.config.searches.join(' ').length <= 2048);
  assert.deepEqual(r.config.searches, long.slice(0, 9));
  assert.equal(r.warnings.length, 1);
});

test('/etc/hosts: localhost lines, the pod\'s address with its FQDN under a subdomain, then hostAliases', () => {
  const p = pod({ hostname: 'db-0', subdomain: 'db' });
  const { hostname, domain } = podHostnameAndDomain(p, 'cluster.local');
  assert.equal(managedHostsContent(['10.42.0.7'], hostname, domain, [{ ip: '10.1.2.3', hostnames: ['foo.local', 'bar.local'] }]),
    '# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n'
    + '10.42.0.7\tdb-0.db.shop.svc.cluster.local\tdb-0\n\n# Entries added by HostAliases.\n10.1.2.3\tfoo.local\tbar.local\n');
  const plain = podHostnameAndDomain(pod(), 'cluster.local');
  assert.match(managedHostsContent(['10.42.0.8'], plain.hostname, plain.domain), /\n10\.42\.0\.8\tweb-0\n$/);
  assert.equal(hostNetworkHostsContent('127.0.0.1 localhost\n', [{ ip: '10.0.0.1', hostnames: ['x'] }]), '# Kubernetes-managed hosts file (host network).\n127.0.0.1 localhost\n\n# Entries added by HostAliases.\n10.0.0.1\tx\n');
});
