// The secondary indexes the watch cache keeps for the registry, and which requests use them:
// pods by spec.nodeName, the selector every node agent lists and watches its pods with.

import type { FieldSelector } from '../api/selectors/field.ts';
import type { IndexHint } from '../storage/interface.ts';
import type { IndexFunc } from '../storage/cacher/field-index.ts';
import type { ResourceInfo } from '../schema/types.ts';
import { resourcePrefix } from './keys.ts';

const nodeName = 'spec.nodeName';
const dec = new TextDecoder();

function readNodeName(value: Uint8Array): string {
  const spec = (JSON.parse(dec.decode(value)) as { spec?: { nodeName?: unknown } }).spec;
  return typeof spec?.nodeName === 'string' ? spec.nodeName : '';
}

/** index name → field reader, per resource prefix, for the watch cache */
export function storageIndexers(): Record<string, Record<string, IndexFunc>> {
  return { [resourcePrefix({ group: '', resource: 'pods' })]: { [nodeName]: readNodeName } };
}

/** the index a request's field selector can use: an exact spec.nodeName match on pods */
export function indexHintFor(info: Pick<ResourceInfo, 'group' | 'resource'>, fields: FieldSelector | undefined): IndexHint | undefined {
  if (!fields || info.group !== '' || info.resource !== 'pods') return undefined;
  // '' counts: the scheduler watches the pods no node has yet
  const pinned = fields.requirements.find(r => r.field === nodeName && r.operator === '=');
  return pinned ? { name: nodeName, value: pinned.value } : undefined;
}
