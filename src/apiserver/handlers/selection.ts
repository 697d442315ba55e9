// labelSelector, fieldSelector and (lists and watches, with the ShardedListAndWatch gate)
// shardSelector query parameters as one object filter.

import type { KubeObject } from '../../api/object.ts';
import { matchesLabels, parseLabelSelector, type LabelSelector } from '../../api/selectors/label.ts';
import { exactName, parseFieldSelector } from '../../api/selectors/field.ts';
import { fieldFilter, validateFieldSelector } from '../../schema/field-selectors.ts';
import { customFieldFilter, validateCustomFieldSelector } from '../../schema/custom-field-selectors.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import type { IndexHint } from '../../registry/registry.ts';
import { indexHintFor } from '../../registry/indexes.ts';
import type { RequestContext } from '../context.ts';
import { parseShardSelector, ShardSelectorError, type ShardSelector } from '../../api/selectors/shard.ts';
import { badRequest } from '../../api/status.ts';

export interface Selection {
  filter?: (obj: KubeObject) => boolean;
  /** a metadata.name=x field selector narrows the read to one key */
  name?: string;
  /** an indexed field the selector pins (pods' spec.nodeName) */
  index?: IndexHint;
  /** the honoured shard selector, echoed in the list's metadata.shardInfo */
  shard?: ShardSelector;
  /** the label part of the selection: a list judges objects by their stored labels before decoding them */
  labels?: LabelSelector;
  /** the labels are the whole selection: a JSON list need decode nothing */
  labelsOnly?: boolean;
}

/** the shard selector of a list or watch; ignored (none) when the gate is off, as older servers ignore it */
function shardOf(ctx: RequestContext): ShardSelector | undefined {
  const text = ctx.query.get('shardSelector');
  if (!text || !ctx.features?.enabled('ShardedListAndWatch') || (ctx.info.verb !== 'list' && ctx.info.verb !== 'watch')) return undefined;
  try {
    return parseShardSelector(text);
  } catch (err) {
    if (err instanceof ShardSelectorError) throw badRequest(err.message);
    throw err;
  }
}

export function selection(ctx: RequestContext, info: ResourceInfo): Selection {
  const ls = ctx.query.get('labelSelector') ?? '';
  const fs = ctx.query.get('fieldSelector') ?? '';
  const labels = ls ? parseLabelSelector(ls) : undefined;
  const fields = !fs ? undefined : info.custom ? validateCustomFieldSelector(info, parseFieldSelector(fs)) : validateFieldSelector(info.group, info.resource, parseFieldSelector(fs), info.version);
  const byLabels = labels && !labels.empty ? labels : undefined;
  const byFields = !fields || fields.empty ? undefined : info.custom ? customFieldFilter(info, fields) : fieldFilter(info.group, info.resource, fields);
  const shard = shardOf(ctx);
  if (!byLabels && !byFields && !shard) return {};
  return {
    name: fields ? exactName(fields) : undefined,
    index: indexHintFor(info, fields),
    filter: obj => (!byLabels || matchesLabels(byLabels, obj.metadata.labels)) && (!byFields || byFields(obj)) && (!shard || shard.matches(obj)),
    shard,
    labels: byLabels,
    labelsOnly: !!byLabels && !byFields && !shard,
  };
}
