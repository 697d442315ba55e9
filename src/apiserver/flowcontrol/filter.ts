// Where flow control meets a request (kube-apiserver's WithPriorityAndFairness and, with APF
// off, WithMaxInFlightLimit filters): after authentication and impersonation, before
// authorization. Long-running requests other than watches pass; a watch holds its seats only
// until it is set up, and is counted by the watch tracker until it ends; a rejected request gets
// 429 with Retry-After, as plain text as Kubernetes writes it, and every classified one names its
// FlowSchema and level by UID.

import type { RequestContext, User } from '../context.ts';
import { inflightKind } from '../metrics/request-labels.ts';
import { requestDeadlineMs } from '../request-timeout.ts';
import { sendRaw } from '../respond.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { MaxInflight } from './max-inflight.ts';

export const tooManyRequestsMessage = 'Too many requests, please try again later.';
// no request waits in a queue longer than this, whatever its deadline
const maxWaitMs = 60_000;

export interface FlowControl {
  /** APF; absent: the max-in-flight limits below */
  dispatcher?: Dispatcher;
  maxInflight?: MaxInflight;
  /** --request-timeout: a request's deadline unless its `timeout` parameter sets a shorter one */
  requestTimeoutMs: number;
}

/**
 * Waits for the request's turn. Answers the function that gives its seats back (called when
 * the request is done; a watch gets it as ctx.watchInitialized too), or undefined after writing
 * the 429.
 */
export async function enterFlowControl(ctx: RequestContext, user: User, fc: FlowControl): Promise<(() => void) | undefined> {
  const kind = inflightKind(ctx.info);
  const isWatch = ctx.info.verb === 'watch';
  if (!kind && !isWatch) return noop;
  if (!fc.dispatcher) {
    if (!kind || !fc.maxInflight) return noop;
    const release = fc.maxInflight.enter(kind, user);
    if (!release) tooManyRequests(ctx, 1);
    return release;
  }
  const ticket = await fc.dispatcher.admit(user, ctx.info, ctx.query, waitLimitMs(ctx, fc.requestTimeoutMs, isWatch), ctx.signal);
  // UIDs rather than names, so that a client is not told how its requests are classified; kept
  // on the context too for responses written straight to an HTTP/2 stream
  const uids = ctx.flowUIDs = { flowSchema: ticket.classification.flowSchema.uid, priorityLevel: ticket.classification.priorityLevel.uid };
  ctx.res.setHeader('X-Kubernetes-PF-FlowSchema-UID', uids.flowSchema);
  ctx.res.setHeader('X-Kubernetes-PF-PriorityLevel-UID', uids.priorityLevel);
  if (!ticket.admitted) {
    tooManyRequests(ctx, ticket.retryAfterSeconds);
    return undefined;
  }
  if (!isWatch) return ticket.release;
  ctx.watchInitialized = ticket.release;
  // counted among the watches that writes are charged for until it ends
  const forget = fc.dispatcher.watches.register(ctx.info, ctx.query);
  return () => { ticket.release(); forget(); };
}

/**
 * A quarter of the request's deadline (its `timeout` parameter when shorter than the server's
 * request timeout), at most a minute; a watch has no deadline and waits a quarter of the
 * request timeout.
 */
export function waitLimitMs(ctx: Pick<RequestContext, 'query'>, requestTimeoutMs: number, isWatch: boolean): number {
  let deadline = requestTimeoutMs;
  if (!isWatch) {
    try {
      deadline = requestDeadlineMs(ctx.query, requestTimeoutMs);
    } catch { /* a timeout that does not parse is the request's own 400, answered by the server */ }
  }
  return Math.min(deadline / 4, maxWaitMs);
}

function tooManyRequests(ctx: RequestContext, retryAfterSeconds: number): void {
  sendRaw(ctx, 429, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Retry-After': String(retryAfterSeconds) }, `${tooManyRequestsMessage}\n`);
}

function noop(): void {}
