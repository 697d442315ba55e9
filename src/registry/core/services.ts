// Services: DNS-1035 names, defaults, a cluster IP from the service range and node ports
// for NodePort and LoadBalancer services; the cluster IP cannot change once set.

import { strategyWith, type StrategyContext } from '../strategy.ts';
import type { KubeObject } from '../../api/object.ts';
import type { FieldError } from '../../api/status.ts';
import type { CoreV1Service } from '../../schema/generated/types.ts';

type Service = CoreV1Service & KubeObject;

// 10.96.0.0/12, the default service range; .1 belongs to the `kubernetes` service
const rangeBase = (10 << 24) | (96 << 16);
const rangeSize = 1 << 20;
const nodePortMin = 30000, nodePortMax = 32767;

function ipString(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

async function usedBy(ctx: StrategyContext): Promise<{ ips: Set<string>; ports: Set<number> }> {
  const ips = new Set<string>(), ports = new Set<number>();
  for (const svc of ((await ctx.listOther?.('', 'services')) ?? []) as Service[]) {
    const s = svc.spec ?? {};
    if (typeof s.clusterIP === 'string') ips.add(s.clusterIP);
    for (const p of s.ports ?? []) if (typeof p.nodePort === 'number') ports.add(p.nodePort);
  }
  return { ips, ports };
}

function validateService(obj: Service): FieldError[] {
  const s = obj.spec ?? {};
  const errs: FieldError[] = [];
  const headless = s.clusterIP === 'None';
  const type = s.type ?? 'ClusterIP';
  if (!['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'].includes(type)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.type', value: type, detail: 'supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"' });
  }
  const ports = s.ports;
  if (!headless && type !== 'ExternalName' && (!Array.isArray(ports) || ports.length === 0)) errs.push({ type: 'FieldValueRequired', field: 'spec.ports' });
  if (Array.isArray(ports)) {
    ports.forEach((p, i) => {
      const port: number | undefined = p.port;
      if (typeof port !== 'number' || port < 1 || port > 65535) {
        errs.push(port === undefined ? { type: 'FieldValueRequired', field: `spec.ports[${i}].port` } : { type: 'FieldValueInvalid', field: `spec.ports[${i}].port`, value: port, detail: 'must be between 1 and 65535, inclusive' });
      }
      if (ports.length > 1 && !p.name) errs.push({ type: 'FieldValueRequired', field: `spec.ports[${i}].name` });
    });
  }
  return errs;
}

export const serviceStrategy = strategyWith<Service>({
  nameRule: 'dns1035',
  returnDeletedObject: true,
  async prepareForCreate(obj, ctx) {
    const s = obj.spec ??= {};
    s.type ??= 'ClusterIP';
    s.sessionAffinity ??= 'None';
    const ports = s.ports ?? [];
    for (const p of ports) {
      p.protocol ??= 'TCP';
      if (p.targetPort === undefined && p.port !== undefined) p.targetPort = p.port;
    }
    obj.status = { loadBalancer: {} };
    if (s.type === 'ExternalName') return;
    s.internalTrafficPolicy ??= 'Cluster';
    s.ipFamilies ??= ['IPv4'];
    s.ipFamilyPolicy ??= 'SingleStack';
    if (s.type === 'NodePort' || s.type === 'LoadBalancer') s.externalTrafficPolicy ??= 'Cluster';
    const used = await usedBy(ctx);
    if (s.clusterIP === undefined || s.clusterIP === '') {
      for (let i = 0; i < 64; i++) {
        const ip = ipString(rangeBase + 2 + Math.floor(ctx.random() * (rangeSize - 3)));
        if (!used.ips.has(ip)) { s.clusterIP = ip; break; }
      }
    }
    if (typeof s.clusterIP === 'string') s.clusterIPs ??= [s.clusterIP];
    if (s.type === 'NodePort' || s.type === 'LoadBalancer') {
      for (const p of ports) {
        if (p.nodePort !== undefined) continue;
        for (let i = 0; i < 64; i++) {
          const port = nodePortMin + Math.floor(ctx.random() * (nodePortMax - nodePortMin + 1));
          if (!used.ports.has(port)) { p.nodePort = port; used.ports.add(port); break; }
        }
      }
    }
  },
  validateCreate: validateService,
  validateUpdate(obj, old) {
    const errs = validateService(obj);
    const s = obj.spec ?? {}, o = old.spec ?? {};
    if (s.clusterIP === undefined || s.clusterIP === '') { s.clusterIP = o.clusterIP; if (o.clusterIPs) s.clusterIPs = o.clusterIPs; }
    else if (o.clusterIP && s.clusterIP !== o.clusterIP && s.type !== 'ExternalName') {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', value: s.clusterIP, detail: 'may not change once set' });
    }
    return errs;
  },
});
