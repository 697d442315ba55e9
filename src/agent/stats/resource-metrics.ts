// /metrics/resource: the kubelet's resource metrics in the Prometheus text format, the names
// metrics-server and autoscalers read (node_cpu_usage_seconds_total,
// container_memory_working_set_bytes, ...), written from a Summary. Samples carry the
// timestamp (ms) at which they were measured.

import type { Summary } from './summary-types.ts';

interface Family { name: string; help: string; type: 'counter' | 'gauge'; samples: string[] }

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labels = (l: Record<string, string>) => {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${esc(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};
/** Go's %g-like float text Prometheus clients write: integers plain, others in shortest form */
const value = (n: number) => (Number.isInteger(n) ? String(n) : String(n).replace(/e\+?/, 'e+').replace('e+-', 'e-'));

export function resourceMetrics(s: Summary, scrapeError: boolean): string {
  const fam = (name: string, help: string, type: Family['type']): Family => ({ name, help, type, samples: [] });
  const containerStart = fam('container_start_time_seconds', '[STABLE] Start time of the container since unix epoch in seconds', 'gauge');
  const containerCpu = fam('container_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the container in core-seconds', 'counter');
  const containerMem = fam('container_memory_working_set_bytes', '[STABLE] Current working set of the container in bytes', 'gauge');
  const nodeCpu = fam('node_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the node in core-seconds', 'counter');
  const nodeMem = fam('node_memory_working_set_bytes', '[STABLE] Current working set of the node in bytes', 'gauge');
  const podCpu = fam('pod_cpu_usage_seconds_total', '[STABLE] Cumulative cpu time consumed by the pod in core-seconds', 'counter');
  const podMem = fam('pod_memory_working_set_bytes', '[STABLE] Current working set of the pod in bytes', 'gauge');
  const scrape = fam('scrape_error', '[ALPHA] 1 if there was an error while getting container metrics, 0 otherwise', 'gauge');
  const add = (f: Family, l: Record<string, string>, v: number | undefined, time: string | undefined) => {
    if (v === undefined) return;
    f.samples.push(`${f.name}${labels(l)} ${value(v)}${time ? ` ${Date.parse(time)}` : ''}`);
  };

  add(nodeCpu, {}, s.node.cpu?.usageCoreNanoSeconds === undefined ? undefined : s.node.cpu.usageCoreNanoSeconds / 1e9, s.node.cpu?.time);
  add(nodeMem, {}, s.node.memory?.workingSetBytes, s.node.memory?.time);
  for (const p of s.pods) {
    const pl = { namespace: p.podRef.namespace, pod: p.podRef.name };
    add(podCpu, pl, p.cpu?.usageCoreNanoSeconds === undefined ? undefined : p.cpu.usageCoreNanoSeconds / 1e9, p.cpu?.time);
    add(podMem, pl, p.memory?.workingSetBytes, p.memory?.time);
    for (const c of p.containers) {
      const cl = { container: c.name, namespace: p.podRef.namespace, pod: p.podRef.name };
      add(containerCpu, cl, c.cpu?.usageCoreNanoSeconds === undefined ? undefined : c.cpu.usageCoreNanoSeconds / 1e9, c.cpu?.time);
      add(containerMem, cl, c.memory?.workingSetBytes, c.memory?.time);
      add(containerStart, cl, Date.parse(c.startTime) / 1000, undefined);
    }
  }
  add(scrape, {}, scrapeError ? 1 : 0, undefined);
  return [containerCpu, containerMem, containerStart, nodeCpu, nodeMem, podCpu, podMem, scrape]
    .filter(f => f.samples.length)
    .map(f => `# HELP ${f.name} ${f.help}\n# TYPE ${f.name} ${f.type}\n${f.samples.join('\n')}\n`)
    .join('');
}
