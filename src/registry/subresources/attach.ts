// pods/<name>/attach (GET and POST, verb `connect`): the streams of a container's main process.
// Checked as kube-apiserver checks it; relayed untouched to the node agent's /attach endpoint.

import type { Subresource } from './subresource.ts';
import { commandParameters, containerStreamUrl, streamQuery } from './pod-stream.ts';

export const attachSubresource: Subresource = {
  name: 'attach',
  verbs: ['create', 'get'],
  connect: true,
  kind: () => ({ group: '', version: 'v1', kind: 'PodAttachOptions' }),
  getParameters: commandParameters,
  upgradeTarget: async call => ({ url: await containerStreamUrl(call, 'attach', streamQuery(call.query)) }),
};
