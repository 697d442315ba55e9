// An object's labels read straight from its stored bytes, so that a list through a label
// selector decodes only the objects it keeps (a node's pods by `-l app=x` out of 30,000 decoded
// a few dozen instead of all). Stored metadata is in Go's field order: after the uid come
// generation, creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, then labels,
// then annotations and the rest; so the labels are found a few fields past the head, or known
// absent once a later field (or the metadata's end) is met. Anything else — a field out of
// that order, an escape or non-ASCII text, which valid labels never hold — says "unknown", and
// the caller decodes the object as before.

import type { KeyValue } from '../storage/interface.ts';
import { PackedKeyValue, valueBytes, valueLength } from '../storage/packed-value.ts';
import { headOf, headSplice, skipPlainString } from './stored-head.ts';

// how much of a packed value's metadata after the uid is copied out to be read (labels are short)
const probes = [192, 1024];
const scratch = new Uint8Array(1024);
const latin1 = Buffer.prototype.latin1Slice;

// what may stand between the uid and the labels, and what comes after where they would be
const beforeLabels = new Set(['generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds']);
const afterLabels = new Set(['annotations', 'ownerReferences', 'finalizers', 'managedFields']);

/** the stored object's labels ({} when it has none); undefined when they cannot be read without a decode */
export function storedLabels(kv: KeyValue): Record<string, string> | undefined {
  const h = headOf(kv);
  if (h === 0) return undefined;
  const from = headSplice(h);
  if (!(kv instanceof PackedKeyValue)) return labelsAt(kv.value, from);
  // a short stretch first (a time and a few labels), then a longer one, then the whole value
  const size = valueLength(kv);
  for (const n of probes) {
    const labels = labelsAt(valueBytes(kv, from, Math.min(size, from + n), scratch), 0);
    if (labels !== undefined || size <= from + n) return labels;
  }
  return labelsAt(kv.value, from);
}

/** the labels in metadata fields starting at `at` (a comma before the next field, or the metadata's end) */
function labelsAt(b: Uint8Array, at: number): Record<string, string> | undefined {
  for (;;) {
    if (b[at] === 0x7d /* } */) return {};
    if (b[at] !== 0x2c /* , */ || b[at + 1] !== 0x22 /* " */) return undefined;
    const keyEnd = skipPlainString(b, at + 2);
    if (!keyEnd || b[keyEnd] !== 0x3a /* : */) return undefined;
    const key = latin1.call(b, at + 2, keyEnd - 1);
    at = keyEnd + 1;
    if (key === 'labels') return labelObject(b, at);
    if (afterLabels.has(key)) return {};
    if (!beforeLabels.has(key)) return undefined;
    // their values are plain strings, whole numbers or null
    const start = at;
    if (b[at] === 0x22) at = skipPlainString(b, at + 1);
    else if (b[at] === 0x6e /* n */ && b[at + 1] === 0x75 && b[at + 2] === 0x6c && b[at + 3] === 0x6c) at += 4;
    else while (at < b.length && ((b[at]! >= 0x30 && b[at]! <= 0x39) || b[at] === 0x2d /* - */)) at++;
    if (!at || at === start || at >= b.length) return undefined;
  }
}

/** `{"k":"v",…}` at `at`, every key and value plain ASCII */
function labelObject(b: Uint8Array, at: number): Record<string, string> | undefined {
  if (b[at] !== 0x7b /* { */) return undefined;
  const labels: Record<string, string> = {};
  if (b[at + 1] === 0x7d) return labels;
  for (;;) {
    if (b[at + 1] !== 0x22) return undefined;
    const keyEnd = skipPlainString(b, at + 2);
    if (!keyEnd || b[keyEnd] !== 0x3a || b[keyEnd + 1] !== 0x22) return undefined;
    const valueEnd = skipPlainString(b, keyEnd + 2);
    if (!valueEnd) return undefined;
    const key = latin1.call(b, at + 2, keyEnd - 1);
    if (key === '__proto__') return undefined; // never a valid label; not a property to set
    labels[key] = latin1.call(b, keyEnd + 2, valueEnd - 1);
    if (b[valueEnd] === 0x7d) return labels;
    if (b[valueEnd] !== 0x2c) return undefined;
    at = valueEnd;
  }
}
