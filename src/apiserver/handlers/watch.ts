import { toStatusError } from '../../api/status.ts';
import { apiVersionOf } from '../../api/object.ts';
import type { Watcher } from '../../registry/registry.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { openWatchStream } from '../respond.ts';
import { watchPlan } from './resource-version.ts';
import { boolParam, intParam } from './options.ts';
import { selection } from './selection.ts';
import { cpuTurn } from '../cpu-turns.ts';

export async function handleWatch(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const sel = selection(ctx, info);
  const name = ctx.info.name ?? sel.name;
  const plan = watchPlan(ctx);
  const bookmarks = boolParam(ctx, 'allowWatchBookmarks');
  const timeout = intParam(ctx, 'timeoutSeconds') ?? deps.watchTimeoutSeconds();
  const registry = deps.registry;
  if (plan.notOlderThan !== undefined) await registry.awaitRevision(plan.notOlderThan);
  const after = plan.initialState ? undefined : plan.after ?? await registry.currentRevision();
  // the initial events are a list sent without a pause: they wait for their turn as a list does
  if (plan.initialState) await cpuTurn(ctx.flowUIDs?.priorityLevel);
  const stream = openWatchStream(ctx);
  // apiserver_watch_events_total: every event, bookmark and error sent to this client
  const sent = deps.metrics?.watchEvents(info) ?? { value: 0 };
  // a bookmark carries only the kind and the resourceVersion everything before it was sent at
  // (an empty object of the kind: Go writes the fields its struct writes unset, and since 1.33
  // no `creationTimestamp: null`)
  const bookmark = (rv: number, annotations?: Record<string, string>) => {
    sent.value++;
    return stream.send('BOOKMARK', {
      kind: info.kind, apiVersion: apiVersionOf(info.group, info.version),
      metadata: { resourceVersion: String(rv), ...(annotations ? { annotations } : {}) },
    });
  };
  // the newest revision this watch has been sent everything up to: what its bookmarks carry
  // (the store's current revision may be ahead of events still on their way to this watch, and a
  // client that resumes from a bookmark would never get those)
  let delivered = after;
  let bookmarkWanted = false;
  const progress = (rv: number) => {
    if (delivered === undefined || rv > delivered) delivered = rv;
    if (bookmarkWanted && delivered !== undefined) { bookmarkWanted = false; bookmark(delivered); }
  };
  let ended!: () => void;
  const over = new Promise<void>(r => { ended = r; });
  let watcher: Watcher;
  try {
    watcher = await registry.watch(info, ctx.info.namespace, { afterRevision: after, filter: sel.filter, name, index: sel.index }, {
      event: (type, object) => { sent.value++; if (!stream.send(type, object)) ended(); },
      end: err => {
        if (err) { sent.value++; stream.send('ERROR', err.status); }
        ended();
      },
      synced: rv => {
        if (delivered === undefined || rv > delivered) delivered = rv;
        if (plan.initialEventsEnd && bookmarks) bookmark(rv, { 'k8s.io/initial-events-end': 'true' });
      },
      progress,
    });
  } catch (err) {
    if (!stream.started) throw err;
    stream.send('ERROR', toStatusError(err).status);
    stream.close();
    return;
  }
  stream.start();
  ctx.watchInitialized?.();
  const timer = setTimeout(ended, timeout * 1000);
  // a bookmark asks the store how far this watch has got and goes out with its answer; a store
  // that cannot say (or does not answer soon) gets one at the revision last known delivered
  const ticker = bookmarks ? setInterval(() => {
    if (!watcher.requestProgress) return void (delivered !== undefined && bookmark(delivered));
    bookmarkWanted = true;
    watcher.requestProgress();
    setTimeout(() => { if (bookmarkWanted && delivered !== undefined) progress(delivered); }, 1000).unref();
  }, deps.bookmarkIntervalMs) : undefined;
  const onAbort = () => ended();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) ended();
  await over;
  clearTimeout(timer);
  if (ticker) clearInterval(ticker);
  ctx.signal.removeEventListener('abort', onAbort);
  watcher.cancel();
  stream.close();
}
