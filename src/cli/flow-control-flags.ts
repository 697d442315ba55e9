// kube-apiserver's flow control flags, taken by `orch server` and `orch up`:
// --enable-priority-and-fairness and the two in-flight limits whose sum is APF's server
// concurrency limit (with APF off, each limits its kind of request; 0 is no limit).

import type { Flag } from './command.ts';
import { UsageError } from './command.ts';
import type { FlowControlFlags } from '../apiserver/start.ts';

export const flowControlFlags: Record<string, Flag> = {
  'enable-priority-and-fairness': { type: 'string', default: 'true', description: 'API Priority and Fairness: requests queued fairly by FlowSchema and priority level (false: the max-in-flight limits alone)' },
  'max-requests-inflight': { type: 'string', default: '400', description: 'read-only requests in flight at once; with APF, added to the mutating limit for the server\'s seats (0: no limit)' },
  'max-mutating-requests-inflight': { type: 'string', default: '200', description: 'mutating requests in flight at once; with APF, added to the read-only limit for the server\'s seats (0: no limit)' },
};

// Go's strconv.ParseBool, as kube-apiserver reads boolean flags
const goBools: Record<string, boolean> = { 1: true, t: true, T: true, TRUE: true, true: true, True: true, 0: false, f: false, F: false, FALSE: false, false: false, False: false };

export function flowControlOptions(values: Record<string, string | boolean | undefined>): { flowControl: FlowControlFlags } {
  const enabled = goBools[String(values['enable-priority-and-fairness'] ?? 'true')];
  if (enabled === undefined) throw new UsageError(`invalid argument ${JSON.stringify(values['enable-priority-and-fairness'])} for "--enable-priority-and-fairness" flag: parse error`);
  const count = (name: string, fallback: string) => {
    const raw = String(values[name] ?? fallback);
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(n)) throw new UsageError(`invalid argument ${JSON.stringify(raw)} for "--${name}" flag: parse error`);
    if (n < 0) throw new UsageError(`--${name} can not be negative value`);
    return n;
  };
  return {
    flowControl: {
      enablePriorityAndFairness: enabled,
      maxRequestsInflight: count('max-requests-inflight', '400'),
      maxMutatingRequestsInflight: count('max-mutating-requests-inflight', '200'),
    },
  };
}
