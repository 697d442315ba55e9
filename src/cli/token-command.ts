// `orch token create`: a bootstrap token for joining a node, as `kubeadm token create` makes one:
// a `bootstrap.kubernetes.io/token` Secret `bootstrap-token-<id>` in kube-system that
// authenticates as system:bootstrap:<id> in system:bootstrappers (and the groups given) until it
// expires. Prints `<id>.<secret>`, for the bootstrap kubeconfig of `orch agent`.

import { randomInt } from 'node:crypto';
import { parseDuration } from '../api/duration.ts';
import { apiClient, kubeconfigFlag } from './api-client-flags.ts';
import { flag, UsageError, type Command } from './command.ts';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomText = (n: number) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
const groupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

export const tokenCommand: Command = {
  name: 'token',
  summary: 'Make a bootstrap token for joining nodes (like kubeadm token create).',
  usage: 'orch token create --kubeconfig FILE [--ttl 24h0m0s] [--groups G,...] [--description TEXT]',
  flags: {
    kubeconfig: kubeconfigFlag,
    ttl: { type: 'string', default: '24h0m0s', description: 'how long the token lasts (0: forever)' },
    groups: { type: 'string', default: 'system:bootstrappers:kubeadm:default-node-token', description: 'extra groups the token authenticates as, each system:bootstrappers:…' },
    usages: { type: 'string', default: 'signing,authentication', description: 'what the token may be used for' },
    description: { type: 'string', default: '', description: 'a note kept with the token' },
  },
  async run(values, positionals) {
    if (positionals[0] !== 'create') throw new UsageError('usage: orch token create --kubeconfig FILE');
    const ttlMs = flag(() => parseDuration(String(values.ttl)));
    const groups = String(values.groups ?? '').split(',').map(g => g.trim()).filter(Boolean);
    const bad = groups.find(g => !groupPattern.test(g));
    if (bad) throw new UsageError(`--groups: ${JSON.stringify(bad)} does not match the required pattern (system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9])`);
    const usages = String(values.usages ?? '').split(',').map(u => u.trim()).filter(Boolean);
    const id = randomText(6), secret = randomText(16);
    const stringData: Record<string, string> = { 'token-id': id, 'token-secret': secret };
    for (const u of usages) stringData[`usage-bootstrap-${u}`] = 'true';
    if (groups.length) stringData['auth-extra-groups'] = groups.join(',');
    if (ttlMs > 0) stringData.expiration = new Date(Date.now() + ttlMs).toISOString().replace(/\.\d+Z$/, 'Z');
    if (values.description) stringData.description = String(values.description);
    const client = await apiClient(values, 'orch-token');
    try {
      await client.create('/api/v1/namespaces/kube-system/secrets', {
        apiVersion: 'v1', kind: 'Secret', type: 'bootstrap.kubernetes.io/token',
        metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' }, stringData,
      });
    } finally {
      client.close();
    }
    process.stdout.write(`${id}.${secret}\n`);
    return 0;
  },
};
