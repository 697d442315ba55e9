// `--authorization-mode` and `--anonymous-auth`, taken by `orch server` and `orch up` with
// kube-apiserver's names and meanings.

import type { Flag } from './command.ts';

export const authorizationFlags: Record<string, Flag> = {
  'authorization-mode': { type: 'string', default: 'Node,RBAC', description: 'ordered list of authorizers, comma-separated: AlwaysAllow, AlwaysDeny, Node, RBAC; the first that allows or denies decides' },
  'anonymous-auth': { type: 'string', default: 'true', description: 'requests without credentials run as system:anonymous (group system:unauthenticated); false: they get 401' },
};

export function authorizationOptions(values: Record<string, string | boolean | undefined>): { authorizationModes: string; anonymousAuth: boolean } {
  const anon = String(values['anonymous-auth'] ?? 'true').toLowerCase();
  if (!['true', 'false', '1', '0', 't', 'f'].includes(anon)) throw new Error(`invalid argument ${JSON.stringify(values['anonymous-auth'])} for "--anonymous-auth" flag: strconv.ParseBool: parsing ${JSON.stringify(values['anonymous-auth'])}: invalid syntax`);
  return { authorizationModes: String(values['authorization-mode'] ?? 'Node,RBAC'), anonymousAuth: ['true', '1', 't'].includes(anon) };
}
