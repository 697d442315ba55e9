// ResourceQuota: a write that would take a namespace past one of its quotas is refused with
// Kubernetes' 403 (`exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`), and an
// admitted one is charged at once: the quotas' status.used is written here, guarded by their
// resourceVersion, as kube-apiserver charges them, so two creates cannot both take the last pod.
// Decisions are api/quota's. Checks in one namespace run one at a time in this server; a
// conflict with another writer (the controller, another server) re-reads the quotas and decides
// again. Dry runs are checked, never charged.

import type { KubeObject } from '../../../api/object.ts';
import { StatusError } from '../../../api/status.ts';
import { checkQuotas, type Quota } from '../../../api/quota/admission-check.ts';
import { evaluatorFor, type Evaluator } from '../../../api/quota/evaluators.ts';
import type { ResourceInfo } from '../../../schema/types.ts';
import type { AdmissionAttributes, AdmissionDeps, AdmissionPlugin } from '../types.ts';
import { admissionForbidden } from '../errors.ts';

/** how often a namespace's quotas are read again after a charge met a conflicting write */
const retries = 3;

export function resourceQuota(deps: AdmissionDeps): AdmissionPlugin {
  const info = deps.catalog.lookup('', 'v1', 'resourcequotas');
  const tails = new Map<string, Promise<unknown>>();

  /** runs `fn` after every earlier check of the namespace has finished */
  function serialized<T>(ns: string, fn: () => Promise<T>): Promise<T> {
    const prev = tails.get(ns) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => {});
    tails.set(ns, tail);
    void tail.then(() => { if (tails.get(ns) === tail) tails.delete(ns); });
    return run;
  }

  const quotasIn = async (ns: string) => (info ? (await deps.registry.list(info, ns)).items : []) as unknown as Quota[];

  async function check(a: AdmissionAttributes, evaluator: Evaluator, info: ResourceInfo): Promise<void> {
    // quotas already charged stay charged; a retry decides again only for the ones that conflicted
    const charged = new Set<string>();
    for (let attempt = 0; ; attempt++) {
      const quotas = (await quotasIn(a.namespace)).filter(q => !charged.has(q.metadata.name));
      if (!quotas.length) return;
      const decision = checkQuotas(quotas, { evaluator, operation: a.operation, object: a.object, oldObject: a.oldObject, now: deps.now().getTime() });
      if (!decision.allowed) throw admissionForbidden(a, decision.message);
      if (a.dryRun) return;
      let conflicted: unknown;
      for (const { quota, used } of decision.charges) {
        const body = { ...quota, status: { ...quota.status, used } } as unknown as KubeObject;
        try {
          await deps.registry.update(info, a.namespace, quota.metadata.name, body, { subresource: 'status', manager: 'kube-apiserver' });
          charged.add(quota.metadata.name);
        } catch (err) {
          if (!(err instanceof StatusError && err.code === 409)) throw err;
          conflicted = err;
        }
      }
      if (!conflicted) return;
      if (attempt >= retries) throw conflicted;
    }
  }

  return {
    name: 'ResourceQuota',
    async validate(a) {
      // subresources change no usage, but for a pod's resize; namespaces and cluster-scoped objects have no quota
      if (a.subresource && !(a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === 'resize')) return;
      if (!info || !a.namespace || !a.object) return;
      const evaluator = evaluatorFor(a.resource.group, a.resource.resource);
      if (!evaluator.handles(a.operation, a.subresource)) return;
      // a namespace without quotas (most) costs one read and waits for nobody
      if (!(await quotasIn(a.namespace)).length) return;
      await serialized(a.namespace, () => check(a, evaluator, info));
    },
  };
}
