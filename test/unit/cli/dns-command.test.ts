// `orch dns`'s flags: the zone, TTL, pod mode and upstreams read as the command and `orch up` use
// them; all interfaces refused before anything starts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dnsCommand, dnsOptions } from '../../../src/cli/dns-command.ts';
import { UsageError } from '../../../src/cli/command.ts';

test('the zone, TTL, pod mode and upstreams from the flags; the nameservers of --resolv-conf unless --upstream names others', async t => {
  const dir = await mkdtemp(join(tmpdir(), 'dns-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'resolv.conf'), 'nameserver 192.0.2.53\nnameserver 2001:db8::53\nsearch example.com\n');
  assert.deepEqual(await dnsOptions({ 'cluster-domain': 'Cluster.Local.', 'resolv-conf': join(dir, 'resolv.conf') }), {
    zone: 'cluster.local', ttl: 5, podMode: 'insecure', upstreams: [{ host: '192.0.2.53', port: 53 }, { host: '2001:db8::53', port: 53 }],
  });
  assert.deepEqual((await dnsOptions({ upstream: '127.0.0.1:5353, [::1]:53,10.0.0.1', 'dns-ttl': '30', pods: 'verified' })), {
    zone: 'cluster.local', ttl: 30, podMode: 'verified', upstreams: [{ host: '127.0.0.1', port: 5353 }, { host: '::1', port: 53 }, { host: '10.0.0.1', port: 53 }],
  });
});

test('bad flags are usage errors in the command\'s words', async () => {
  await assert.rejects(dnsOptions({ 'cluster-domain': 'bad_domain' }), (e: Error) => e instanceof UsageError && e.message === 'invalid --cluster-domain "bad_domain"');
  await assert.rejects(dnsOptions({ 'dns-ttl': '-1' }), (e: Error) => e instanceof UsageError && e.message === 'invalid --dns-ttl "-1"');
  await assert.rejects(dnsOptions({ pods: 'all' }), (e: Error) => e instanceof UsageError && e.message === '--pods must be insecure, verified or disabled, not "all"');
  for (const address of ['0.0.0.0', '::']) {
    await assert.rejects(dnsCommand.run({ address, port: '0', kubeconfig: '/nonexistent' }, []), (e: Error) => e instanceof UsageError && e.message === '--address must name one address of this host, not all of them');
  }
});
