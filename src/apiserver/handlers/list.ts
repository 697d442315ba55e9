import type { RequestContext } from '../context.ts';
import type { HandlerDeps } from './deps.ts';
import { plainJsonRequested, sendJsonText, sendObject } from '../respond.ts';
import { listPlan } from './resource-version.ts';
import { intParam } from './options.ts';
import { selection } from './selection.ts';
import { cpuTurn } from '../cpu-turns.ts';
import { giveBackAnswerBuffer, takeAnswerBuffer } from '../answer-buffers.ts';

export async function handleList(ctx: RequestContext, deps: HandlerDeps): Promise<void> {
  const info = ctx.resource!;
  const sel = selection(ctx, info);
  const limit = intParam(ctx, 'limit');
  const plan = listPlan(ctx);
  const wanted = plan.exact ?? plan.notOlderThan;
  if (wanted !== undefined) await deps.registry.awaitRevision(wanted);
  // a list is read, assembled and written on its turns: one to begin, one per further slice of
  // a JSON list's items (other encodings are made in one piece)
  const turn = () => cpuTurn(ctx.flowUIDs?.priorityLevel);
  const opts = { limit, continueToken: ctx.query.get('continue') || undefined, revision: plan.exact, pause: turn };
  await turn();
  // unfiltered or selected by labels alone: the items are written as stored, never decoded
  if ((!sel.filter || sel.labelsOnly) && plainJsonRequested(ctx, 'list')) {
    // its bytes go into buffers used again once its response has closed and nothing writes them
    const held: Buffer[] = [];
    let closed = false;
    let settled = false;
    const giveBack = () => { for (const b of held) giveBackAnswerBuffer(b); };
    ctx.res.once('close', () => { closed = true; if (settled) giveBack(); });
    const alloc = (size: number) => { const b = takeAnswerBuffer(size); held.push(b); return b; };
    try {
      return sendJsonText(ctx, 200, await deps.registry.listJson(info, ctx.info.namespace, { ...opts, alloc, labels: sel.labels }));
    } finally {
      settled = true;
      if (closed) giveBack();
    }
  }
  // objects the labels rule out are not decoded
  const list = await deps.registry.list(info, ctx.info.namespace, { ...opts, filter: sel.filter, name: sel.name, index: sel.index, labels: sel.labels });
  // a sharded list is not the whole collection: it says which part it is
  if (sel.shard) list.metadata.shardInfo = { selector: sel.shard.text };
  sendObject(ctx, 200, list);
}
