// Buffers for list answers, used again once their response has closed. A flooded server writes
// hundreds of lists of a few hundred kilobytes a second; each fresh buffer is memory outside
// V8's heap, and V8 runs a full collection whenever that memory has grown by its limit: four or
// five a second, with pauses up to 20 ms that every other request waits through. Kept buffers
// come in power-of-two sizes from 64 KiB to 16 MiB, at most 64 MiB of them, all dropped ten
// seconds after the last one came back (an idle server keeps none). A buffer comes back when its
// response has closed: by then HTTP/2 or TLS has taken its bytes, gzip has read them and the
// audit log has decoded them.

const minBits = 16;
const maxBits = 24;
const keepBytes = 64 << 20;
const idleMs = 10_000;

const free: ArrayBuffer[][] = [];
const ours = new WeakSet<ArrayBuffer>();
let kept = 0;
let trim: ReturnType<typeof setTimeout> | undefined;

/** a buffer of `size` bytes, of the pool when its size is one the pool keeps */
export function takeAnswerBuffer(size: number): Buffer {
  if (size < 1 << (minBits - 1) || size > 1 << maxBits) return Buffer.allocUnsafe(size);
  const bits = Math.max(minBits, 32 - Math.clz32(size - 1));
  const reused = free[bits]?.pop();
  if (reused) {
    kept -= reused.byteLength;
    return Buffer.from(reused, 0, size);
  }
  const fresh = new ArrayBuffer(1 << bits);
  ours.add(fresh);
  return Buffer.from(fresh, 0, size);
}

/** gives a buffer back once nothing reads it any more (its response has closed) */
export function giveBackAnswerBuffer(b: Buffer): void {
  const ab = b.buffer as ArrayBuffer;
  if (!ours.has(ab) || kept + ab.byteLength > keepBytes) return;
  (free[31 - Math.clz32(ab.byteLength)] ??= []).push(ab);
  kept += ab.byteLength;
  if (trim) clearTimeout(trim);
  trim = setTimeout(dropAll, idleMs);
  trim.unref();
}

function dropAll(): void {
  free.length = 0;
  kept = 0;
  trim = undefined;
}

/** bytes kept for reuse (for tests) */
export function answerBytesKept(): number {
  return kept;
}
