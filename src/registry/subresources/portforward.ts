// pods/<name>/portforward (GET and POST, verb `connect`): connections to ports of the pod's
// network namespace. The `ports` of the query become the kubelet's `port` parameters; the
// connection is relayed untouched to the node agent's /portForward endpoint.

import type { Subresource } from './subresource.ts';
import { portForwardUrl } from './pod-stream.ts';

export const portForwardSubresource: Subresource = {
  name: 'portforward',
  verbs: ['create', 'get'],
  connect: true,
  kind: () => ({ group: '', version: 'v1', kind: 'PodPortForwardOptions' }),
  getParameters: [{ name: 'ports', type: 'integer' }],
  upgradeTarget: async call => ({ url: await portForwardUrl(call, call.query.getAll('ports')) }),
};
