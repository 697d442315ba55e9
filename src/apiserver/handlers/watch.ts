import { toStatusError } from '../../api/status.ts';
import type { Watcher } from '../../storage/interface.ts';
import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { openWatchStream } from '../respond.ts';
import { watchStart } from './resource-version.ts';
import { intParam } from './options.ts';
import { selection } from './selection.ts';

export async function handleWatch(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const sel = selection(ctx, info);
  const name = ctx.info.name ?? sel.name;
  const afterRevision = watchStart(ctx);
  const timeout = intParam(ctx, 'timeoutSeconds') ?? deps.watchTimeoutSeconds();
  const stream = openWatchStream(ctx);
  let ended!: () => void;
  const over = new Promise<void>(r => { ended = r; });
  let watcher: Watcher;
  try {
    watcher = await deps.store.watch(info, ctx.info.namespace, { afterRevision, filter: sel.filter, name }, {
      event: (type, object) => stream.send(type, object),
      end: err => {
        if (err) stream.send('ERROR', err.status);
        ended();
      },
    });
  } catch (err) {
    if (!stream.started) throw err;
    stream.send('ERROR', toStatusError(err).status);
    stream.close();
    return;
  }
  stream.start();
  const timer = setTimeout(ended, timeout * 1000);
  const onAbort = () => ended();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) ended();
  await over;
  clearTimeout(timer);
  ctx.signal.removeEventListener('abort', onAbort);
  watcher.cancel();
  stream.close();
}
