// `orch check watch`: checks that an API server's watches keep their promise under concurrent
// writers — every watcher sees every acknowledged change exactly once, in resourceVersion order,
// and ends up with what a final list says — against orch (SQLite or etcd) or any Kubernetes API
// server. It writes in a scratch namespace it makes and removes. Exit code 1 on a violation.

import { parseDuration } from '../api/duration.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { flag, UsageError, type Command } from './command.ts';
import { checkedResources } from './check-watch/resources.ts';
import { runWatchCheck, type WatchCheckReport } from './check-watch/session.ts';

const shown = 10;

function count(values: Record<string, string | boolean | undefined>, name: string, max: number): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}, not ${JSON.stringify(values[name])}`);
  return n;
}

/** the verdict as the command prints it */
export function formatReport(r: WatchCheckReport): string {
  const lines: string[] = [];
  const figures = `${r.acknowledged} acknowledged writes, ${r.uncertain} with an unknown outcome; ${r.watchers} watchers saw ${r.events} events` +
    `${r.relists ? ` and listed again ${r.relists} times after 410` : ''}; final list: ${r.finalObjects} objects at resourceVersion ${r.finalResourceVersion}`;
  if (!r.violations.length) {
    lines.push(`PASS: every watcher saw every acknowledged change once, in order, and holds what the final list holds`, `  ${figures}`);
    return lines.join('\n') + '\n';
  }
  const kinds = new Map<string, number>();
  for (const v of r.violations) kinds.set(v.kind, (kinds.get(v.kind) ?? 0) + 1);
  lines.push(`FAIL: ${r.violations.length} violations (${[...kinds].map(([k, n]) => `${k}: ${n}`).join(', ')})`, `  ${figures}`);
  for (const v of r.violations.slice(0, shown)) lines.push(`  - ${v.watcher === undefined ? '' : `watcher ${v.watcher}: `}${v.message}`);
  if (r.violations.length > shown) lines.push(`  ... and ${r.violations.length - shown} more`);
  return lines.join('\n') + '\n';
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'Check an API server\'s guarantees from outside (check watch: watch consistency under concurrent writers).',
  usage: 'orch check watch --kubeconfig FILE [--namespace NS] [--writers N] [--watchers M] [--duration 30s] [--resource configmaps]',
  flags: {
    kubeconfig: kubeconfigFlag,
    namespace: { type: 'string', default: '', description: 'write in this existing namespace instead of a scratch one made and removed' },
    writers: { type: 'string', default: '4', description: 'concurrent writers creating, updating and deleting objects' },
    watchers: { type: 'string', default: '4', description: 'watchers, each listing, then watching with bookmarks and resuming as client-go does' },
    duration: { type: 'string', default: '30s', description: 'how long the writers write' },
    resource: { type: 'string', default: 'configmaps', description: `what to write: ${Object.keys(checkedResources).join(' or ')}` },
    verbose: { type: 'boolean', default: false, description: 'also print failures that are not violations (refused writes, broken watches)' },
  },
  async run(values, positionals) {
    if (positionals[0] !== 'watch' || positionals.length > 1) throw new UsageError('usage: orch check watch --kubeconfig FILE (the one check there is)');
    const resource = checkedResources[String(values.resource)];
    if (!resource) throw new UsageError(`--resource must be one of ${Object.keys(checkedResources).join(', ')}, not ${JSON.stringify(values.resource)}`);
    const writers = count(values, 'writers', 256);
    const watchers = count(values, 'watchers', 256);
    const durationMs = flag(() => parseDuration(String(values.duration)));
    if (durationMs <= 0) throw new UsageError('--duration must be positive');
    const client = await apiClient(values, 'orch-check-watch');
    const out = (s: string) => process.stdout.write(s);
    try {
      out(`checking watches of ${resource.resource}: ${writers} writers, ${watchers} watchers, ${values.duration}\n`);
      const report = await runWatchCheck(client, {
        resource, writers, watchers, durationMs,
        namespace: values.namespace ? String(values.namespace) : undefined,
        onError: values.verbose ? m => process.stderr.write(`${m}\n`) : undefined,
        onProgress: p => out(`  ${Math.round(p.elapsedMs / 1000)}s: ${p.acknowledged} writes acknowledged, ${p.events} events seen${p.relists ? `, ${p.relists} re-lists` : ''}\n`),
      });
      out(formatReport(report));
      return report.violations.length ? 1 : 0;
    } finally {
      client.close();
    }
  },
};
