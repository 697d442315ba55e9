import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testApi } from '../../support/fake-request.ts';

const path = '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies';

test('NetworkPolicies get networking/v1\'s defaults: protocol TCP, policyTypes from the rules present', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const post = (name: string, spec: object) => api.request('POST', path, { body: { metadata: { name }, spec } });
  assert.equal((await post('in', { podSelector: {}, ingress: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }] })).status, 201);
  const made = (await api.request('GET', `${path}/in`)).json();
  assert.deepEqual(made.spec.policyTypes, ['Ingress']);
  assert.deepEqual(made.spec.ingress[0].ports, [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }]);
  assert.equal((await post('out', { podSelector: {}, egress: [{}] })).status, 201);
  assert.deepEqual((await api.request('GET', `${path}/out`)).json().spec.policyTypes, ['Ingress', 'Egress']);
  assert.equal((await post('empty-egress', { podSelector: {}, egress: [] })).status, 201);
  assert.deepEqual((await api.request('GET', `${path}/empty-egress`)).json().spec.policyTypes, ['Ingress'], 'an empty egress list is no egress rules');
  assert.equal((await post('given', { podSelector: {}, policyTypes: ['Egress'] })).status, 201);
  assert.deepEqual((await api.request('GET', `${path}/given`)).json().spec.policyTypes, ['Egress']);
  // an update is defaulted the same way
  const given = (await api.request('GET', `${path}/given`)).json();
  const put = await api.request('PUT', `${path}/given`, { body: { ...given, spec: { podSelector: {}, policyTypes: [], egress: [{ ports: [{ port: 443 }] }] } } });
  assert.equal(put.status, 200, String(put.body));
  assert.deepEqual(put.json().spec, { podSelector: {}, policyTypes: ['Ingress', 'Egress'], egress: [{ ports: [{ port: 443, protocol: 'TCP' }] }] });
});

test('invalid NetworkPolicies are refused in kube-apiserver\'s words', async t => {
  const api = await testApi();
  t.after(() => api.close());
  const refused = async (spec: object) => {
    const r = await api.request('POST', path, { body: { metadata: { name: 'bad' }, spec } });
    assert.equal(r.status, 422, String(r.body));
    return r.json().message as string;
  };
  assert.equal(await refused({ podSelector: {}, ingress: [{ ports: [{ port: 'http', endPort: 90 }] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric');
  assert.equal(await refused({ podSelector: {}, egress: [{ ports: [{ port: 90, endPort: 80 }] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.egress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`');
  assert.equal(await refused({ podSelector: {}, ingress: [{ ports: [{ endPort: 80 }] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.ingress[0].ports[0].endPort: Invalid value: 80: may not be specified when `port` is not specified');
  assert.equal(await refused({ podSelector: {}, ingress: [{ ports: [{ port: 0, protocol: 'ICMP' }] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: [spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP", spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive]');
  assert.match(await refused({ podSelector: {}, ingress: [{ ports: [{ port: 'Web--' }] }] }),
    /spec\.ingress\[0\]\.ports\[0\]\.port: Invalid value: "Web--": must contain only alpha-numeric characters \(a-z, 0-9\), and hyphens \(-\), spec\.ingress\[0\]\.ports\[0\]\.port: Invalid value: "Web--": must not contain consecutive hyphens, .*must not begin or end with a hyphen/);
  assert.equal(await refused({ podSelector: {}, ingress: [{ from: [{}] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.ingress[0].from[0]: Required value: must specify a peer');
  assert.equal(await refused({ podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer');
  assert.equal(await refused({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)');
  assert.equal(await refused({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.1.0/24', '10.0.0.0/16', '192.168.0.0/24'] } }] }] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: [spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: "10.0.0.0/16": must be a strict subset of `cidr`, spec.ingress[0].from[0].ipBlock.except[2]: Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`]');
  assert.equal(await refused({ podSelector: { matchExpressions: [{ key: 'app', operator: 'In' }, { key: 'tier', operator: 'Exists', values: ['x'] }, { key: 'x', operator: 'Is' }] } }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: [spec.podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\', spec.podSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is \'Exists\' or \'DoesNotExist\', spec.podSelector.matchExpressions[2].operator: Invalid value: "Is": not a valid selector operator]');
  assert.equal(await refused({ podSelector: {}, policyTypes: ['Ingress', 'Sideways'] }),
    'NetworkPolicy.networking.k8s.io "bad" is invalid: spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"');
});
