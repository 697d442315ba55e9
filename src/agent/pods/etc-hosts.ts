// A pod's /etc/hosts, as the kubelet writes it into the pod's directory and mounts it into every
// container (unless the container mounts something there itself): localhost lines, the pod's
// addresses with its hostname (and FQDN when it has a subdomain), then its hostAliases; on the
// host's network, the host's own file plus the hostAliases.

import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CriMount, CriInput } from '../cri/generated/cri-types.ts';
import { podDir } from './volumes/layout.ts';
import type { Pod } from './types.ts';

type HostAlias = { ip?: string; hostnames?: string[] };

function aliasLines(aliases: HostAlias[] | undefined): string {
  if (!aliases?.length) return '';
  return `\n# Entries added by HostAliases.\n${aliases.map(a => `${a.ip ?? ''}\t${(a.hostnames ?? []).join('\t')}\n`).join('')}`;
}

/** the pod's host name and domain as the kubelet makes them: spec.hostname or the pod's name, the subdomain's FQDN */
export function podHostnameAndDomain(pod: Pod, clusterDomain: string): { hostname: string; domain: string } {
  const hostname = (pod.spec.hostname || pod.metadata.name).slice(0, 63).replace(/[-.]+$/, '');
  const sub = pod.spec.subdomain;
  return { hostname, domain: sub && clusterDomain ? `${sub}.${pod.metadata.namespace}.svc.${clusterDomain}` : '' };
}

export function managedHostsContent(podIPs: string[], hostname: string, domain: string, aliases?: HostAlias[]): string {
  let out = '# Kubernetes-managed hosts file.\n'
    + '127.0.0.1\tlocalhost\n'
    + '::1\tlocalhost ip6-localhost ip6-loopback\n'
    + 'fe00::0\tip6-localnet\n'
    + 'fe00::0\tip6-mcastprefix\n'
    + 'fe00::1\tip6-allnodes\n'
    + 'fe00::2\tip6-allrouters\n';
  for (const ip of podIPs) out += domain ? `${ip}\t${hostname}.${domain}\t${hostname}\n` : `${ip}\t${hostname}\n`;
  return out + aliasLines(aliases);
}

export function hostNetworkHostsContent(hostFile: string, aliases?: HostAlias[]): string {
  return `# Kubernetes-managed hosts file (host network).\n${hostFile}${aliasLines(aliases)}`;
}

/**
 * writes <pod dir>/etc-hosts and returns its mount, or undefined when the kubelet would mount
 * none (no pod address yet, or the container mounts /etc/hosts itself)
 */
export async function etcHostsMount(rootDir: string, pod: Pod, podIPs: string[], clusterDomain: string, containerMountsEtcHosts: boolean, hostEtcHosts = '/etc/hosts'): Promise<CriInput<CriMount> | undefined> {
  if (!podIPs.length || containerMountsEtcHosts) return undefined;
  const dir = podDir(rootDir, pod.metadata.uid);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'etc-hosts');
  const aliases = pod.spec.hostAliases as HostAlias[] | undefined;
  let content: string;
  if (pod.spec.hostNetwork) {
    content = hostNetworkHostsContent(await readFile(hostEtcHosts, 'utf8').catch(() => ''), aliases);
  } else {
    const { hostname, domain } = podHostnameAndDomain(pod, clusterDomain);
    content = managedHostsContent(podIPs, hostname, domain, aliases);
  }
  await writeFile(file, content, { mode: 0o644 });
  return { containerPath: '/etc/hosts', hostPath: file, readonly: false, selinuxRelabel: true, propagation: 'PROPAGATION_PRIVATE' };
}
