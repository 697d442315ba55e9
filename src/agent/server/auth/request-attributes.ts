// What a request to the agent's endpoint asks for, in the API's terms, so the API server's
// authorizer can answer for it: verb from the HTTP method, resource `nodes` named after this node,
// and a subresource from the path. Fine-grained paths (pods, healthz, configz, statusz) are asked
// for first and fall back to `proxy`, so a caller holding only nodes/proxy keeps working, as
// KubeletFineGrainedAuthz (on by default since 1.33) has it.

export interface NodeAttributes {
  verb: string;
  resource: 'nodes';
  /** asked in order; the first allowed one admits the request */
  subresources: string[];
  name: string;
  path: string;
}

/** the API verb for an HTTP method; others (HEAD, OPTIONS) map to none, as the kubelet maps them */
export function apiVerb(method: string | undefined): string {
  switch (method) {
    case 'POST': return 'create';
    case 'GET': return 'get';
    case 'PUT': return 'update';
    case 'PATCH': return 'patch';
    case 'DELETE': return 'delete';
    default: return '';
  }
}

/** `path` is `base` itself or below it (a trailing slash on `base` is ignored) */
export function isSubpath(path: string, base: string): boolean {
  const b = base.endsWith('/') ? base.slice(0, -1) : base;
  return path === b || (path.startsWith(b) && path[b.length] === '/');
}

// paths with their own subresource; everything else (exec, attach, portForward, run,
// containerLogs, ...) is nodes/proxy
const dedicated: Array<[string, string]> = [['/stats/', 'stats'], ['/metrics', 'metrics'], ['/logs/', 'log'], ['/checkpoint/', 'checkpoint']];
const fineGrained: Array<[string, string]> = [['/pods', 'pods'], ['/healthz', 'healthz'], ['/configz', 'configz'], ['/statusz', 'statusz'], ['/runningpods/', 'pods']];

export function nodeRequestAttributes(nodeName: string, method: string | undefined, path: string, fineGrainedAuthz = true): NodeAttributes {
  const subresources: string[] = [];
  const fine = fineGrainedAuthz ? fineGrained.find(([base]) => isSubpath(path, base)) : undefined;
  if (fine) subresources.push(fine[1]);
  subresources.push(dedicated.find(([base]) => isSubpath(path, base))?.[1] ?? 'proxy');
  return { verb: apiVerb(method), resource: 'nodes', subresources, name: nodeName, path };
}
