// A stored value the storage layer could not turn back into an object's bytes (a value encrypted
// with a key the server no longer has). It reaches the registry as a marker carrying the reason,
// so reads report that object as corrupt, naming the key, while the rest of a list still reads.

const marker = '\u0000orch-unreadable\u0000';
const enc = new TextEncoder();
const dec = new TextDecoder();

export function unreadableValue(reason: string): Uint8Array {
  return enc.encode(marker + reason);
}

/** the reason, when `value` is such a marker */
export function unreadableReason(value: Uint8Array): string | undefined {
  if (value.length < marker.length || value[0] !== 0) return undefined;
  const text = dec.decode(value);
  return text.startsWith(marker) ? text.slice(marker.length) : undefined;
}
