// serviceaccounts/<name>/token: TokenRequest, how kubectl, the agent and controllers get a
// service account token. The request names its lifetime (default 1 h, at least 10 min), its
// audiences (default the API server's) and optionally a Pod, Secret or Node the token is bound to;
// that object must exist (with the uid given) and the token dies with it. The signing itself is
// the API server's (`apiserver/authn/`); this module checks the request and names the claims.

import { badRequest, conflict, invalid, type FieldError } from '../../api/status.ts';
import type { KubeObject } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import type { Subresource, SubresourceCall, SubresourceResult } from './subresource.ts';

import type { IssueTokenRequest } from './token-service.ts';

export const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** the lifetime the agent asks for to get a token that is extended to a year but warns after it */
export const WARN_ONLY_EXPIRATION_SECONDS = 3607;
const EXTENDED_EXPIRATION_SECONDS = 365 * 24 * 3600;

interface TokenRequest extends KubeObject {
  spec?: { audiences?: string[] | null; expirationSeconds?: number | null; boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null };
}

export function validateTokenRequestSpec(spec: { expirationSeconds: number }): FieldError[] {
  const out: FieldError[] = [];
  if (spec.expirationSeconds < MIN_EXPIRATION_SECONDS) out.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', value: spec.expirationSeconds, detail: 'may not specify a duration less than 10 minutes' });
  if (spec.expirationSeconds > MAX_EXPIRATION_SECONDS) out.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', value: spec.expirationSeconds, detail: 'may not specify a duration larger than 2^32 seconds' });
  return out;
}

async function getObject(call: SubresourceCall, resource: string, namespace: string | undefined, name: string): Promise<KubeObject> {
  return call.registry.get(call.lookup('', 'v1', resource)!, namespace, name);
}

async function createToken(call: SubresourceCall, body: KubeObject): Promise<SubresourceResult> {
  const tokens = call.tokens;
  if (!tokens) throw new Error('service account tokens are not configured on this server');
  const req = body as TokenRequest;
  const namespace = call.namespace!;
  const name = call.name;
  const kind = 'TokenRequest', group = 'authentication.k8s.io';
  if (req.metadata?.name && req.metadata.name !== name) throw invalid(kind, group, name, [{ type: 'FieldValueInvalid', field: 'metadata.name', value: req.metadata.name, detail: 'must match the service account name if specified' }]);
  if (req.metadata?.namespace && req.metadata.namespace !== namespace) throw invalid(kind, group, name, [{ type: 'FieldValueInvalid', field: 'metadata.namespace', value: req.metadata.namespace, detail: 'must match the service account namespace if specified' }]);
  const audiences = req.spec?.audiences?.length ? req.spec.audiences : [...tokens.apiAudiences];
  let expirationSeconds = req.spec?.expirationSeconds ?? 3600;
  const errors = validateTokenRequestSpec({ expirationSeconds });
  if (errors.length) throw invalid(kind, group, name, errors);
  const sa = await getObject(call, 'serviceaccounts', namespace, name);
  const issue: IssueTokenRequest = { namespace, serviceAccount: { name, uid: sa.metadata.uid! }, audiences, expirationSeconds, now: call.now() };
  const ref = req.spec?.boundObjectRef;
  if (ref) {
    const refGroup = (ref.apiVersion ?? '').includes('/') ? ref.apiVersion!.split('/')[0] : '';
    const refVersion = (ref.apiVersion ?? '').split('/').pop() ?? '';
    let bound: KubeObject;
    if (refGroup === '' && ref.kind === 'Pod') {
      bound = await getObject(call, 'pods', namespace, ref.name ?? '');
      const spec = (bound.spec ?? {}) as { serviceAccountName?: string; nodeName?: string };
      if ((spec.serviceAccountName ?? 'default') !== name) throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
      issue.pod = { name: bound.metadata.name!, uid: bound.metadata.uid! };
      if (spec.nodeName) {
        // the node's name and uid go into the claim when the node is known (ServiceAccountTokenPodNodeInfo)
        const node = await getObject(call, 'nodes', undefined, spec.nodeName).catch(() => undefined);
        if (node) issue.node = { name: node.metadata.name!, uid: node.metadata.uid! };
      }
    } else if (refGroup === '' && ref.kind === 'Secret') {
      bound = await getObject(call, 'secrets', namespace, ref.name ?? '');
      issue.secret = { name: bound.metadata.name!, uid: bound.metadata.uid! };
    } else if (refGroup === '' && ref.kind === 'Node') {
      bound = await getObject(call, 'nodes', undefined, ref.name ?? '');
      issue.node = { name: bound.metadata.name!, uid: bound.metadata.uid! };
    } else {
      throw badRequest(`cannot bind token to object of type ${refGroup}/${refVersion}, Kind=${ref.kind ?? ''}`);
    }
    if (ref.uid && ref.uid !== bound.metadata.uid) {
      throw conflict({ group: refGroup, resource: ref.kind! }, ref.name ?? '', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
  }
  if (tokens.maxExpirationSeconds > 0 && expirationSeconds > tokens.maxExpirationSeconds) expirationSeconds = issue.expirationSeconds = tokens.maxExpirationSeconds;
  // a projected token the agent asked for with the magic lifetime lives a year but is reported as
  // used late after its requested lifetime: old clients that never reread their token keep working
  if (tokens.extendExpiration && issue.pod && expirationSeconds === WARN_ONLY_EXPIRATION_SECONDS && audiences.some(a => tokens.apiAudiences.includes(a))) {
    issue.warnAfterSeconds = expirationSeconds;
    issue.expirationSeconds = EXTENDED_EXPIRATION_SECONDS;
  }
  const { token } = await tokens.issuer.issue(issue);
  const expirationTimestamp = rfc3339(new Date(issue.now.getTime() + expirationSeconds * 1000));
  const out = {
    kind, apiVersion: `${group}/v1`,
    metadata: { ...(req.metadata ?? {}), creationTimestamp: req.metadata?.creationTimestamp ?? null },
    spec: { audiences, expirationSeconds, boundObjectRef: ref ?? null },
    status: { token, expirationTimestamp },
  };
  return { type: 'object', code: 201, object: out as unknown as KubeObject };
}

export const tokenSubresource: Subresource = {
  name: 'token',
  verbs: ['create'],
  connect: false,
  kind: () => ({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', definition: 'io.k8s.api.authentication.v1.TokenRequest' }),
  create: createToken,
};
