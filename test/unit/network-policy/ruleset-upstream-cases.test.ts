// Cases of the upstream NetworkPolicy e2e suite that are easy to get wrong, as data.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, cluster, db, policy, remote, tools, web } from './cluster-fixture.ts';
test('an address excepted from one rule\'s block but allowed by another rule is allowed', () => {
  const { fwd } = cluster([policy('p', { podSelector: { matchLabels: { app: 'client' } }, policyTypes: ['Egress'], egress: [
    { to: [{ ipBlock: { cidr: '10.42.0.0/24', except: [`${web}/32`] } }] },
    { to: [{ ipBlock: { cidr: `${web}/32` } }] },
  ] })]);
  assert.equal(fwd({ src: client, dst: web }), 'accept');
  assert.equal(fwd({ src: client, dst: db }), 'accept');
  assert.equal(fwd({ src: client, dst: remote }), 'drop');
});

test('protocols are not confused: SCTP is not TCP, a UDP-only policy refuses TCP on the same port', () => {
  const sctp = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ ports: [{ protocol: 'SCTP', port: 80 }] }] })]);
  assert.equal(sctp.fwd({ src: client, dst: web, proto: 'tcp', port: 80 }), 'drop');
  assert.equal(sctp.fwd({ src: client, dst: web, proto: 'sctp', port: 80 }), 'accept');
  const udp = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ ports: [{ protocol: 'UDP', port: 81 }] }] })]);
  assert.equal(udp.fwd({ src: client, dst: web, proto: 'tcp', port: 81 }), 'drop');
  assert.equal(udp.fwd({ src: client, dst: web, proto: 'udp', port: 81 }), 'accept');
});

test('egress and ingress are independent: a client\'s egress deny holds even where the server allows it', () => {
  const { fwd } = cluster([
    policy('server-allows', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{}] }),
    policy('client-denies', { podSelector: { matchLabels: { app: 'client' } }, policyTypes: ['Egress'] }),
  ]);
  assert.equal(fwd({ src: client, dst: web }), 'drop');
  assert.equal(fwd({ src: db, dst: web }), 'accept');
  assert.equal(fwd({ src: web, dst: client }), 'accept', 'client\'s ingress is not isolated');
});

test('a namespace selected by its automatic name label (kubernetes.io/metadata.name)', () => {
  const { fwd } = cluster([policy('p', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a'] }] } }] }] })]);
  assert.equal(fwd({ src: tools, dst: web }), 'accept');
  assert.equal(fwd({ src: client, dst: web }), 'drop');
});
