import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servicePorts, usableEndpoints } from '../../../src/proxy/service-ports.ts';
import { bySvc, service, slice } from './fixtures.ts';

test('one entry per port, endpoints matched by port name and protocol, sorted', () => {
  const svc = service('web', { clusterIP: '10.96.0.5', ports: [{ name: 'http', port: 80, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }] });
  const s = slice('web', [{ ip: '10.42.0.9' }, { ip: '10.42.0.3' }], [{ name: 'http', port: 8080 }, { name: 'dns', port: 5353, protocol: 'UDP' }]);
  const ports = servicePorts([svc], bySvc(s), 'ip');
  assert.deepEqual(ports.map(p => [p.portName, p.protocol, p.port, p.endpoints.map(e => `${e.ip}:${e.port}`)]), [
    ['http', 'tcp', 80, ['10.42.0.3:8080', '10.42.0.9:8080']],
    ['dns', 'udp', 53, ['10.42.0.3:5353', '10.42.0.9:5353']],
  ]);
});

test('headless, ExternalName and other families are not proxied; an IPv6 slice feeds only ip6', () => {
  const headless = service('h', { clusterIP: 'None', ports: [{ port: 80 }] });
  const ext = service('x', { type: 'ExternalName', externalName: 'example.com' });
  const dual = service('d', { clusterIP: '10.96.0.7', clusterIPs: ['10.96.0.7', 'fd00::7'], ports: [{ port: 80 }] });
  const v4 = slice('d', [{ ip: '10.42.0.2' }], [{ port: 80 }], { name: 'd-4' });
  const v6 = slice('d', [{ ip: 'fd01::2' }], [{ port: 80 }], { name: 'd-6', addressType: 'IPv6' });
  const p4 = servicePorts([headless, ext, dual], bySvc(v4, v6), 'ip');
  const p6 = servicePorts([headless, ext, dual], bySvc(v4, v6), 'ip6');
  assert.deepEqual(p4.map(p => [p.name, p.clusterIPs, p.endpoints.map(e => e.ip)]), [['d', ['10.96.0.7'], ['10.42.0.2']]]);
  assert.deepEqual(p6.map(p => [p.name, p.clusterIPs, p.endpoints.map(e => e.ip)]), [['d', ['fd00::7'], ['fd01::2']]]);
});

test('node ports only for NodePort and LoadBalancer; load balancer addresses only from status', () => {
  const np = service('np', { type: 'NodePort', clusterIP: '10.96.0.8', ports: [{ port: 80, nodePort: 30080 }] });
  const lb = service('lb', { type: 'LoadBalancer', clusterIP: '10.96.0.9', ports: [{ port: 80, nodePort: 30081 }] }, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.50' }] } } });
  const stale = service('ci', { clusterIP: '10.96.0.10', ports: [{ port: 80, nodePort: 30082 }] }, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.51' }] } } });
  const ports = servicePorts([np, lb, stale], new Map(), 'ip');
  assert.deepEqual(ports.map(p => [p.name, p.nodePort, p.loadBalancerIPs]), [['np', 30080, []], ['lb', 30081, ['192.0.2.50']], ['ci', undefined, []]]);
});

test('session affinity: ClientIP with its timeout, 10800 s by default', () => {
  const a = service('a', { clusterIP: '10.96.0.11', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] });
  const b = service('b', { clusterIP: '10.96.0.12', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } }, ports: [{ port: 80 }] });
  const c = service('c', { clusterIP: '10.96.0.13', sessionAffinity: 'None', ports: [{ port: 80 }] });
  assert.deepEqual(servicePorts([a, b, c], new Map(), 'ip').map(p => p.affinitySeconds), [10800, 60, undefined]);
});

test('unset conditions read as ready and serving; the readier copy of an address in two slices counts', () => {
  const svc = service('w', { clusterIP: '10.96.0.14', ports: [{ port: 80 }] });
  const s1: any = slice('w', [{ ip: '10.42.0.2' }], [{ port: 80 }], { name: 's1' });
  delete s1.endpoints[0].conditions;
  const s2 = slice('w', [{ ip: '10.42.0.3', ready: false }], [{ port: 80 }], { name: 's2' });
  const s3 = slice('w', [{ ip: '10.42.0.3', ready: true }], [{ port: 80 }], { name: 's3' });
  const eps = servicePorts([svc], bySvc(s1, s2, s3), 'ip')[0]!.endpoints;
  assert.deepEqual(eps.map(e => [e.ip, e.ready, e.serving]), [['10.42.0.2', true, true], ['10.42.0.3', true, true]]);
});

test('usable endpoints: ready ones; serving terminating ones only when none is ready; per node for Local', () => {
  const ep = (ip: string, node: string, ready: boolean, serving: boolean, terminating: boolean) => ({ ip, port: 80, node, nodeName: node, ready, serving, terminating });
  const all = [ep('a', 'n1', true, true, false), ep('b', 'n2', false, true, true), ep('c', 'n2', false, false, true), ep('d', 'n1', false, false, false)];
  assert.deepEqual(usableEndpoints(all).map(e => e.ip), ['a']);
  assert.deepEqual(usableEndpoints(all, 'n2').map(e => e.ip), ['b']);
  assert.deepEqual(usableEndpoints(all.slice(1)).map(e => e.ip), ['b']);
  assert.deepEqual(usableEndpoints(all, 'n3'), []);
});
