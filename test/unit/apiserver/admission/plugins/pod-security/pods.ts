// Pods for the Pod Security tests: a container by name with a securityContext, a pod that meets
// restricted (which the tables then break one field at a time), and a way to ask the evaluator
// for a level at a version and get the refusal text kube-apiserver would print.

import type { CoreV1PodSpec } from '../../../../../../src/schema/generated/types.ts';
import { forbiddenDetail, newEvaluator } from '../../../../../../src/apiserver/admission/plugins/pod-security/registry.ts';
import type { Level, Version } from '../../../../../../src/apiserver/admission/plugins/pod-security/policy.ts';

export type Spec = Record<string, unknown>;
export const c = (name: string, securityContext: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ name, image: 'i', securityContext, ...extra });

const restrictedSc = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
/** a container restricted lets through, with `more` merged into its securityContext */
export const rc = (name: string, more: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => c(name, { ...restrictedSc, ...more }, extra);
/** a pod restricted lets through: pod-level runAsNonRoot and seccomp, restricted containers */
export const restrictedPod = (more: Spec = {}, podSc: Record<string, unknown> = {}): Spec => ({
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, ...podSc },
  containers: [rc('c')],
  ...more,
});

const evaluator = newEvaluator(undefined, 36);

/** what `level` at `version` says of the pod: '' when allowed, else the refusal's detail */
export function verdict(level: Level, version: Version, spec: Spec, annotations?: Record<string, string>): string {
  return forbiddenDetail(evaluator.evaluate({ level, version }, { annotations }, spec as unknown as CoreV1PodSpec));
}
