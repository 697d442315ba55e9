// The leader election flags of kube-controller-manager and kube-scheduler, and running a
// component only while this process holds its lease: the component starts when the lease is
// taken and stops when it is lost (to start again if it is taken back).

import { parseDuration } from '../api/duration.ts';
import { parseGoBool } from '../api/go-bool.ts';
import type { Logger } from '../api/log.ts';
import { eventRecorder } from '../client/events.ts';
import { startLeaderElection } from '../client/leader-election.ts';
import type { Client } from '../client/rest.ts';
import { flag, type Flag } from './command.ts';

export function leaderElectionFlags(lease: string): Record<string, Flag> {
  return {
    'leader-elect': { type: 'string', default: 'true', description: 'run only while holding a Lease, so that of several copies one works and the others stand by' },
    'leader-elect-lease-duration': { type: 'string', default: '15s', description: 'how long a standby waits, after the lease last changed, before it takes the lease' },
    'leader-elect-renew-deadline': { type: 'string', default: '10s', description: 'how long the leader keeps trying to renew before it stops leading' },
    'leader-elect-retry-period': { type: 'string', default: '2s', description: 'how often the lease is tried or renewed' },
    'leader-elect-resource-name': { type: 'string', default: lease, description: 'the Lease\'s name' },
    'leader-elect-resource-namespace': { type: 'string', default: 'kube-system', description: 'the Lease\'s namespace' },
  };
}

export interface LeaderElectionSettings {
  enabled: boolean; name: string; namespace: string; leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number;
  /** a candidate's name that outlives the process (default: a new one each start) */
  identity?: string;
}

export function leaderElectionOptions(values: Record<string, string | boolean | undefined>): LeaderElectionSettings {
  return flag(() => {
    const enabled = parseGoBool(String(values['leader-elect']));
    if (enabled === undefined) throw new Error(`invalid argument "${values['leader-elect']}" for "--leader-elect" flag: strconv.ParseBool: parsing "${values['leader-elect']}": invalid syntax`);
    const s = { enabled, name: String(values['leader-elect-resource-name']), namespace: String(values['leader-elect-resource-namespace']), leaseDurationMs: parseDuration(String(values['leader-elect-lease-duration'])), renewDeadlineMs: parseDuration(String(values['leader-elect-renew-deadline'])), retryPeriodMs: parseDuration(String(values['leader-elect-retry-period'])) };
    // kube-controller-manager refuses the same combinations
    if (s.enabled && s.leaseDurationMs <= s.renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
    if (s.enabled && s.renewDeadlineMs <= s.retryPeriodMs) throw new Error('renewDeadline must be greater than retryPeriod');
    return s;
  });
}

/**
 * runs `start` while this process leads (always, when election is off); stop() stops both.
 * `electionClient` renews the lease and records its events: a client of its own, as
 * kube-controller-manager's, so renewals never queue behind the component's own traffic
 */
export function runElected(electionClient: Client, log: Logger, settings: LeaderElectionSettings, component: string, start: () => { stop(): void }): { stop(): Promise<void> } {
  if (!settings.enabled) {
    const running = start();
    return { stop: async () => running.stop() };
  }
  let running: { stop(): void } | undefined;
  const election = startLeaderElection({
    client: electionClient, log, namespace: settings.namespace, name: settings.name, identity: settings.identity,
    leaseDurationMs: settings.leaseDurationMs, renewDeadlineMs: settings.renewDeadlineMs, retryPeriodMs: settings.retryPeriodMs,
    events: eventRecorder(electionClient, component, log),
    onStartedLeading: () => { running = start(); },
    onStoppedLeading: () => { running?.stop(); running = undefined; },
  });
  return { stop: () => election.stop() };
}
