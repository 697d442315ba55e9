// The flag and client of commands that run against an API server from outside it.

import { loadKubeconfig } from '../client/kubeconfig.ts';
import { createClient, type Client } from '../client/rest.ts';
import { UsageError, type Flag } from './command.ts';

export const kubeconfigFlag: Flag = { type: 'string', default: '', description: 'kubeconfig with the API server address and credentials (required)' };

/** the client that --kubeconfig names; a missing flag is a usage error */
export async function apiClient(values: Record<string, string | boolean | undefined>, userAgent?: string): Promise<Client> {
  if (!values.kubeconfig) throw new UsageError('--kubeconfig is required');
  return createClient(await loadKubeconfig(String(values.kubeconfig)), userAgent ? { userAgent } : undefined);
}
