// The API server's flow control from its flags: API Priority and Fairness with the classifier's
// configuration, or (--enable-priority-and-fairness=false, or no classifier) the max-in-flight
// limits; its metrics join the server's /metrics.

import type { Family } from '../../api/metrics/families.ts';
import type { FlowClassifier } from './types.ts';
import { Dispatcher } from './dispatcher.ts';
import { serverConcurrencyLimit } from './limits.ts';
import { MaxInflight } from './max-inflight.ts';
import type { FlowControl } from './filter.ts';
import type { ObjectCounter } from './width.ts';

export interface FlowControlOptions {
  /** the configuration side of APF; absent: APF off, the max-in-flight limits apply */
  classifier?: FlowClassifier;
  /** --max-requests-inflight (default 400) */
  maxRequestsInflight?: number;
  /** --max-mutating-requests-inflight (default 200) */
  maxMutatingRequestsInflight?: number;
  /** --request-timeout (default 60 s) */
  requestTimeoutMs?: number;
  /** stored objects per group-resource, for the seats of lists */
  objectCount?: ObjectCounter;
  /** how often seats are re-divided among levels by demand (default 10 s) */
  adjustIntervalMs?: number;
}

export const defaultMaxRequestsInflight = 400;
export const defaultMaxMutatingRequestsInflight = 200;

export function createFlowControl(opts: FlowControlOptions, register: (families: Family[]) => void): FlowControl & { close(): void } {
  const readOnly = opts.maxRequestsInflight ?? defaultMaxRequestsInflight;
  const mutating = opts.maxMutatingRequestsInflight ?? defaultMaxMutatingRequestsInflight;
  if (readOnly < 0) throw new Error('--max-requests-inflight can not be negative value');
  if (mutating < 0) throw new Error('--max-mutating-requests-inflight can not be negative value');
  const requestTimeoutMs = opts.requestTimeoutMs ?? 60_000;
  if (!opts.classifier) {
    const maxInflight = readOnly === 0 && mutating === 0 ? undefined : new MaxInflight(readOnly, mutating);
    return { maxInflight, requestTimeoutMs, close() {} };
  }
  const dispatcher = new Dispatcher({
    classifier: opts.classifier,
    serverConcurrencyLimit: serverConcurrencyLimit(readOnly, mutating),
    objectCount: opts.objectCount,
    adjustIntervalMs: opts.adjustIntervalMs,
  });
  register(dispatcher.metrics.families);
  return { dispatcher, requestTimeoutMs, close: () => dispatcher.close() };
}
