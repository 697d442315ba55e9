// CertificateSigningRequests (certificates.k8s.io/v1) as kube-apiserver keeps them: the
// requester's identity recorded in the spec at creation, the spec fixed afterwards, a status that
// starts empty; the Approved/Denied conditions change only through `approval`, the certificate
// only through `status` and only once; condition times filled in by the server.

import type { KubeObject } from '../../api/object.ts';
import { deepClone } from '../../api/object.ts';
import { rfc3339 } from '../../api/time.ts';
import { parseCsr } from '../../pki/csr.ts';
import { strategyWith, type StrategyContext } from '../strategy.ts';
import { validateCsrSpec, validateCsrStatus, validateCsrUpdate, type CsrCondition, type CsrLike, type CsrWritePath } from '../validation/csr.ts';

type Csr = KubeObject & CsrLike & { spec: Record<string, unknown> & CsrLike['spec'] };

/**
 * What parsing spec.request said, kept from prepareForCreate (which may wait for the X.509 library
 * and check the signature) to validateCreate (which may not wait) for the same object.
 */
const requestErrors = new WeakMap<object, string | undefined>();

async function prepareForCreate(obj: Csr, ctx: StrategyContext): Promise<void> {
  delete obj.status;
  const spec = obj.spec ??= { request: '', signerName: '' };
  // the requester is whoever sent it; what a client put there is replaced
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  if (ctx.user) {
    spec.username = ctx.user.name;
    if (ctx.user.uid) spec.uid = ctx.user.uid;
    if (ctx.user.groups.length) spec.groups = [...ctx.user.groups];
    if (ctx.user.extra && Object.keys(ctx.user.extra).length) spec.extra = deepClone(ctx.user.extra);
  }
  const parsed = await parseCsr(Buffer.from(typeof spec.request === 'string' ? spec.request : '', 'base64').toString('latin1'));
  requestErrors.set(obj, 'error' in parsed ? parsed.error : undefined);
}

/** lastUpdateTime and lastTransitionTime the writer left out, as kube-apiserver fills them */
export function populateConditionTimes(obj: CsrLike, old: CsrLike, now: Date): void {
  const t = rfc3339(now);
  for (const c of obj.status?.conditions ?? []) {
    c.lastUpdateTime ||= t;
    if (!c.lastTransitionTime) {
      const before = (old.status?.conditions ?? []).find(o => o.type === c.type && o.status === c.status && o.lastTransitionTime);
      c.lastTransitionTime = before?.lastTransitionTime ?? t;
    }
  }
}

/** through status, existing Approved/Denied conditions stay as they were (adding or removing one is refused by validation) */
function keepApprovalConditions(obj: CsrLike, old: CsrLike): void {
  const conditions = obj.status?.conditions;
  if (!conditions) return;
  for (const t of ['Approved', 'Denied']) {
    const before = (old.status?.conditions ?? []).filter(c => c.type === t);
    const idx = conditions.flatMap((c, i) => (c.type === t ? [i] : []));
    if (idx.length === before.length) idx.forEach((i, k) => { conditions[i] = deepClone(before[k]!) as CsrCondition; });
  }
}

export const csrStrategy = strategyWith<Csr>({
  // Kubernetes does not care what requests are called, beyond being a path segment
  nameRule: 'path-segment',
  prepareForCreate,
  validateCreate: obj => {
    const errs = validateCsrSpec(obj.spec ?? {}, requestErrors.get(obj));
    return [...errs, ...validateCsrStatus(obj)];
  },
  prepareForUpdate: (obj, old) => {
    obj.spec = deepClone(old.spec);
    if (old.status) obj.status = deepClone(old.status); else delete obj.status;
  },
  validateUpdate: (obj, old) => validateCsrUpdate(obj, old, 'resource'),
  prepareForStatusUpdate: (obj, old, ctx) => {
    obj.spec = deepClone(old.spec);
    keepApprovalConditions(obj, old);
    populateConditionTimes(obj, old, ctx.now);
  },
  validateStatusUpdate: (obj, old) => validateCsrUpdate(obj, old, 'status'),
});

/** the approval subresource's writes: conditions from the body, everything else as stored */
export function prepareApproval(body: KubeObject, current: KubeObject, now: Date): KubeObject {
  const next = deepClone(current) as Csr;
  const conditions = (body as Csr).status?.conditions;
  next.status = { ...(next.status ?? {}) };
  if (conditions) next.status.conditions = deepClone(conditions); else delete next.status.conditions;
  populateConditionTimes(next, current as Csr, now);
  return next;
}

export function validateApproval(obj: KubeObject, old: KubeObject, path: CsrWritePath = 'approval') {
  return validateCsrUpdate(obj as Csr, old as Csr, path);
}
