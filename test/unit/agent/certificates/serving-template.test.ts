// What the agent's serving certificate must name, and when the one it has no longer does.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCa, issueCert } from '../../../../src/pki/certs.ts';
import { certificateNames, satisfiesTemplate, servingTemplate } from '../../../../src/agent/certificates/serving-template.ts';

test('the template: host names as DNS names, addresses as IPs, sorted; none without an IP', () => {
  assert.deepEqual(servingTemplate('n1', [
    { type: 'InternalIP', address: '10.0.0.2' }, { type: 'Hostname', address: 'n1.example' }, { type: 'ExternalIP', address: '1.2.3.4' },
    { type: 'InternalDNS', address: 'a.internal' }, { type: 'ExternalDNS', address: 'n1.example' }, { type: 'InternalIP', address: 'fd00::1' },
  ]), { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['a.internal', 'n1.example'], ips: ['1.2.3.4', '10.0.0.2', 'fd00::1'] });
  // a Hostname that is an address is an IP; an InternalIP that is not an address is nothing
  assert.deepEqual(servingTemplate('n1', [{ type: 'Hostname', address: '10.1.1.1' }, { type: 'InternalIP', address: 'not-an-ip' }])?.ips, ['10.1.1.1']);
  assert.equal(servingTemplate('n1', [{ type: 'Hostname', address: 'n1' }]), undefined, 'no IP: nothing is asked for yet (AllowDNSOnlyNodeCSR off)');
  assert.equal(servingTemplate('n1', []), undefined);
});

test('a certificate satisfies the template while it carries every name asked for; extra names do not matter', async () => {
  const ca = await createCa('ca', 1);
  const cert = (await issueCert(ca, { commonName: 'system:node:n1', organizations: ['system:nodes'], days: 1, usage: 'server', dnsNames: ['n1', 'extra'], ips: ['10.0.0.2', 'fd00::1'] })).cert;
  assert.deepEqual(certificateNames(cert), { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1', 'extra'], ips: ['10.0.0.2', 'fd00::1'] });
  const t = servingTemplate('n1', [{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '10.0.0.2' }])!;
  assert.equal(satisfiesTemplate(cert, t), true);
  assert.equal(satisfiesTemplate(cert, { ...t, ips: ['fd00:0:0:0:0:0:0:1'] }), true, 'IPv6 compared as addresses');
  assert.equal(satisfiesTemplate(cert, { ...t, ips: ['10.0.0.3'] }), false, 'a new address');
  assert.equal(satisfiesTemplate(cert, { ...t, dnsNames: ['n1.example'] }), false, 'a new host name');
  assert.equal(satisfiesTemplate(cert, { ...t, commonName: 'system:node:n2' }), false, 'another node');
  assert.equal(satisfiesTemplate(cert, { ...t, organizations: ['system:nodes', 'x'] }), false);
});
