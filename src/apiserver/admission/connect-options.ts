// The options object a connect request's admission sees, as kube-apiserver decodes it from the
// query: PodExecOptions, PodAttachOptions, PodPortForwardOptions, or a proxy's options (the
// path after /proxy). Plugins read it to decide (a node may not exec into pods, ...).

import type { KubeObject } from '../../api/object.ts';

const kinds: Record<string, Record<string, string>> = {
  pods: { exec: 'PodExecOptions', attach: 'PodAttachOptions', portforward: 'PodPortForwardOptions', proxy: 'PodProxyOptions' },
  services: { proxy: 'ServiceProxyOptions' },
  nodes: { proxy: 'NodeProxyOptions' },
};

const flags = ['stdin', 'stdout', 'stderr', 'tty'];

export function connectOptions(resource: string, subresource: string, query: URLSearchParams, proxyPath?: string): KubeObject {
  const [sub] = subresource.split('/');
  const o: Record<string, unknown> = { kind: kinds[resource]?.[sub!] ?? 'ConnectOptions', apiVersion: 'v1' };
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    if (flags.includes(key)) o[key] = ['true', '1'].includes(values[0]!);
    else if (key === 'command') o.command = values;
    else if (key === 'ports') o.ports = values.flatMap(v => v.split(',')).map(Number);
    else if (key === 'container' || key === 'path') o[key] = values[0];
  }
  if (proxyPath !== undefined && o.path === undefined) o.path = proxyPath;
  return o as unknown as KubeObject;
}
