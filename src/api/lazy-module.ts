// Libraries loaded the first time something uses them rather than when orch starts. An idle
// cluster never parses a CEL shard selector, answers in CBOR or YAML, or opens a WebSocket, yet
// importing those libraries at start kept their sources and compiled code in every process's
// heap (CEL alone about 9 MB). require() loads synchronously, so callers stay synchronous; the
// libraries' types still come from `import type`.

import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** the module `specifier`, required on the first call and the same object ever after */
export function lazyModule<T>(specifier: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(specifier) as T);
}
