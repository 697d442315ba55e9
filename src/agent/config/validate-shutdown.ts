// The graceful node shutdown fields checked as the kubelet's configuration validation checks
// them, in its words: the periods' bounds, the critical pods' share, the gates each field needs,
// and shutdownGracePeriodByPodPriority as the only way when given.

import { formatDuration, parseDuration } from '../../api/duration.ts';
import type { FeatureGates } from '../features.ts';

export interface ShutdownFields {
  shutdownGracePeriod?: unknown;
  shutdownGracePeriodCriticalPods?: unknown;
  shutdownGracePeriodByPodPriority?: unknown;
}

/** a duration field as milliseconds and as Go prints it (%v of a metav1.Duration) */
function duration(v: unknown): { ms: number; text: string } {
  if (typeof v !== 'string') return { ms: 0, text: '0s' };
  const ms = v.startsWith('-') ? -parseDuration(v.slice(1)) : parseDuration(v);
  return { ms, text: formatDuration(ms * 1e6) };
}

export function shutdownConfigProblems(c: ShutdownFields, gates: FeatureGates): string[] {
  const out: string[] = [];
  const period = duration(c.shutdownGracePeriod);
  const critical = duration(c.shutdownGracePeriodCriticalPods);
  const byPriority = Array.isArray(c.shutdownGracePeriodByPodPriority) ? c.shutdownGracePeriodByPodPriority : [];
  const subSecond = (d: { ms: number }) => d.ms < 0 || (d.ms > 0 && d.ms < 1000);
  if (gates.enabled('GracefulNodeShutdown')) {
    if (critical.ms > period.ms) out.push(`shutdownGracePeriodCriticalPods ${critical.text} must be <= shutdownGracePeriod ${period.text}`);
    if (subSecond(period)) out.push(`shutdownGracePeriod ${period.text} must be either zero or otherwise >= 1 sec`);
    if (subSecond(critical)) out.push(`shutdownGracePeriodCriticalPods ${critical.text} must be either zero or otherwise >= 1 sec`);
  } else if (period.ms > 0 || critical.ms > 0) {
    out.push('specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown');
  }
  if (gates.enabled('GracefulNodeShutdownBasedOnPodPriority')) {
    if (byPriority.length && (period.ms > 0 || critical.ms > 0)) out.push('Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time');
  } else if (byPriority.length) {
    out.push('Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority');
  }
  // each entry as the strict decoder reads ShutdownGracePeriodByPodPriority (int32 priority, int64 seconds)
  for (const [i, e] of byPriority.entries()) {
    const entry = (e ?? {}) as Record<string, unknown>;
    const unknown = Object.keys(entry).filter(k => k !== 'priority' && k !== 'shutdownGracePeriodSeconds');
    if (typeof e !== 'object' || e === null || Array.isArray(e) || unknown.length) out.push(`shutdownGracePeriodByPodPriority[${i}]: only priority and shutdownGracePeriodSeconds may be given`);
    else if (!Number.isInteger(entry.priority ?? 0) || !Number.isInteger(entry.shutdownGracePeriodSeconds ?? 0)) out.push(`shutdownGracePeriodByPodPriority[${i}]: priority and shutdownGracePeriodSeconds must be whole numbers`);
  }
  return out;
}
