// A pod's DNS settings (what the runtime writes into its /etc/resolv.conf), as the kubelet forms
// them: the cluster's DNS Service for ClusterFirst (ClusterFirstWithHostNet on the host's
// network), the host's resolv.conf for Default (and for ClusterFirst on the host's network, or
// when no cluster DNS is configured, with a MissingClusterDNS warning), nothing for None; then the
// pod's own dnsConfig appended; then the kubelet's limits, with a DNSConfigForming warning when
// they cut anything.

import { mergeOptions, type ResolvConf } from '../../dns/resolv-conf.ts';
import type { Pod } from './types.ts';

export interface DnsSettings {
  clusterDNS: string[];
  clusterDomain: string;
  /** the host's resolv.conf as the kubelet's resolvConf setting names it; undefined when that setting is empty */
  hostResolvConf?: ResolvConf;
  nodeIPs: string[];
}

export interface PodDns {
  config: ResolvConf;
  /** warning events for the pod: [reason, message] */
  warnings: Array<[string, string]>;
}

// the API's limits, which the kubelet holds every pod's settings to
const maxNameservers = 3;
const maxSearchPaths = 32;
const maxSearchListChars = 2048;
const maxSearchLength = 253;

const unique = (list: string[]) => list.filter((x, i) => list.indexOf(x) === i);

function fitSearches(searches: string[], warnings: Array<[string, string]>): string[] {
  let exceeded = searches.length > maxSearchPaths;
  let out = searches.slice(0, maxSearchPaths);
  // resolvers abort on a search path longer than a domain name may be
  const kept = out.filter(s => s.length <= maxSearchLength);
  exceeded ||= kept.length !== out.length;
  out = kept;
  let line = out.join(' ').length;
  if (line > maxSearchListChars) {
    while (out.length && line > maxSearchListChars) line -= out.pop()!.length + 1;
    exceeded = true;
  }
  if (exceeded) warnings.push(['DNSConfigForming', `Search Line limits were exceeded, some search paths have been omitted, the applied search line is: ${out.join(' ')}`]);
  return out;
}

export function podDnsConfig(pod: Pod, s: DnsSettings): PodDns {
  const warnings: Array<[string, string]> = [];
  const policy = pod.spec.dnsPolicy || 'ClusterFirst';
  const host = s.hostResolvConf ?? { nameservers: [], searches: [], options: [] };
  let type: 'cluster' | 'host' | 'none' =
    policy === 'None' ? 'none'
      : policy === 'ClusterFirstWithHostNet' ? 'cluster'
        : policy === 'ClusterFirst' && !pod.spec.hostNetwork ? 'cluster'
          : 'host';
  let config: ResolvConf = { nameservers: [...host.nameservers], searches: [...host.searches], options: [...host.options] };
  if (type === 'none') config = { nameservers: [], searches: [], options: [] };
  if (type === 'cluster') {
    if (s.clusterDNS.length) {
      const d = s.clusterDomain;
      const cluster = d ? [`${pod.metadata.namespace}.svc.${d}`, `svc.${d}`, d] : [];
      config = { nameservers: [...s.clusterDNS], searches: d ? unique([...cluster, ...host.searches]) : host.searches, options: ['ndots:5'] };
    } else {
      warnings.push(['MissingClusterDNS', `pod: "${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})". kubelet does not have ClusterDNS IP configured and cannot create Pod using "ClusterFirst" policy. Falling back to "Default" policy.`]);
      type = 'host';
    }
  }
  if (type === 'host' && !s.hostResolvConf) {
    // no host resolv.conf: the resolver's own default, a nameserver on this machine
    config.nameservers = s.nodeIPs.length ? s.nodeIPs.map(ip => (ip.includes(':') ? '::1' : '127.0.0.1')) : ['127.0.0.1'];
    config.searches = ['.'];
  }
  const own = pod.spec.dnsConfig;
  if (own) {
    config.nameservers = unique([...config.nameservers, ...(own.nameservers ?? [])]);
    config.searches = unique([...config.searches, ...(own.searches ?? [])]);
    config.options = mergeOptions(config.options, (own.options ?? []).map(o => (o.value != null && o.value !== '' ? `${o.name}:${o.value}` : String(o.name))));
  }
  if (config.nameservers.length > maxNameservers) {
    config.nameservers = config.nameservers.slice(0, maxNameservers);
    warnings.push(['DNSConfigForming', `Nameserver limits were exceeded, some nameservers have been omitted, the applied nameserver line is: ${config.nameservers.join(' ')}`]);
  }
  config.searches = fitSearches(config.searches, warnings);
  return { config, warnings };
}
