// Node keeps every compiled module's cache entry (its V8 code cache, read from the cache
// directory bin/orch sets) in memory until the cache is flushed, about 9 MiB for `orch up`
// (found with heaptrack). Flushing writes what is new and lets them go. A command flushes once
// its modules are loaded, before its servers allocate (so their buffers reuse the freed memory,
// which malloc would otherwise keep), and again once it is running, after the modules it loads
// on first use: idle RSS of `orch up` with one pod 118 -> 109 MiB, at no cost in speed.

import { flushCompileCache } from 'node:module';

/** writes the new cache entries and frees the ones held in memory */
export function releaseCompileCache(): void {
  flushCompileCache();
}
