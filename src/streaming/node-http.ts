// node:http for the layers that serve and call HTTP (streaming and every layer after it), taken
// without importing it as an ES module. An ES import builds the module's namespace by reading
// every export, and `http.WebSocket` is a lazy getter that loads Node's
// bundled undici: about 0.75 MB of source and its compiled code kept in the heap of every orch
// process, which uses none of it. Types still come from `import type` of node:http.

import type * as NodeHttp from 'node:http';

export const http: typeof NodeHttp = process.getBuiltinModule('node:http');
