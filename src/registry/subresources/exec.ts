// pods/<name>/exec (GET and POST, verb `connect`): a command run in a container, its streams
// carried by the upgraded connection. Checked here as kube-apiserver checks it (the container,
// the node); the connection itself is relayed untouched to the node agent's /exec endpoint,
// where the protocol the client chose is spoken (see docs/architecture.md, Streaming).

import type { Subresource, SubresourceCall } from './subresource.ts';
import { commandParameters, containerStreamUrl, streamQuery } from './pod-stream.ts';

async function execTarget(call: SubresourceCall): Promise<{ url: string }> {
  const query = streamQuery(call.query);
  for (const c of call.query.getAll('command')) query.append('command', c);
  return { url: await containerStreamUrl(call, 'exec', query) };
}

export const execSubresource: Subresource = {
  name: 'exec',
  verbs: ['create', 'get'],
  connect: true,
  kind: () => ({ group: '', version: 'v1', kind: 'PodExecOptions' }),
  getParameters: [{ name: 'command', type: 'string' }, ...commandParameters],
  upgradeTarget: execTarget,
};
