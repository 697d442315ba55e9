// Rows of the log as the contract's values: KeyValue for a row, WatchEvent for a history row.

import type { KeyValue, WatchEvent } from '../interface.ts';
import type { Row } from './schema.ts';

const empty = new Uint8Array(0);

/** a history row joined with the row it replaced (prev_* are null when there was none) */
export interface HistoryRow extends Row {
  prev_value: Uint8Array | null;
  prev_create_revision: number | null;
}

export function toKv(r: Row): KeyValue {
  return { key: r.name, value: r.value, createRevision: r.create_revision, modRevision: r.id };
}

/** the event a committed row stands for */
export function rowEvent(r: HistoryRow): WatchEvent {
  if (r.deleted) {
    // a delete row holds the value it removed, so prevKv needs no older row
    return {
      type: 'delete',
      kv: { key: r.name, value: empty, createRevision: r.create_revision, modRevision: r.id },
      prevKv: { key: r.name, value: r.value, createRevision: r.create_revision, modRevision: r.prev_revision },
    };
  }
  const event: WatchEvent = { type: 'put', kv: toKv(r) };
  if (r.prev_revision && r.prev_value) {
    event.prevKv = { key: r.name, value: r.prev_value, createRevision: r.prev_create_revision ?? r.create_revision, modRevision: r.prev_revision };
  }
  return event;
}

/** the tombstone a delete of `prev` at revision `id` produces */
export function deleteEvent(prev: KeyValue, id: number): WatchEvent {
  return { type: 'delete', kv: { key: prev.key, value: empty, createRevision: prev.createRevision, modRevision: id }, prevKv: prev };
}
