// What a Pod Security check is: an id, the level it belongs to, and its behaviour by policy
// version (each entry applies from its minimum minor version up to the next entry's). A
// restricted entry may stand in for baseline checks (`overrides`) at the versions it covers.

import type { CoreV1Container, CoreV1PodSpec } from '../../../../../schema/generated/types.ts';

export interface PodMeta { annotations?: Record<string, string> }
/** a failed check in Kubernetes' words: a short reason and a detail ('' for none) */
export interface Violation { reason: string; detail: string }
export type CheckFn = (meta: PodMeta, spec: CoreV1PodSpec) => Violation | undefined;

export interface VersionedCheck {
  /** the minor version of v1.x this behaviour starts at */
  minimumVersion: number;
  run: CheckFn;
  overrides?: readonly string[];
}

export interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** strictly increasing minimum versions */
  versions: readonly VersionedCheck[];
}

export type Container = CoreV1Container & { name: string };

/** init containers, then containers, then ephemeral containers, as the checks visit them */
export function containersOf(s: CoreV1PodSpec): Container[] {
  return [...(s.initContainers ?? []), ...(s.containers ?? []), ...((s.ephemeralContainers ?? []) as Container[])] as Container[];
}

/** a pod that says it runs Windows: exempt from the Linux-only restricted checks from v1.25 */
export const isWindows = (s: CoreV1PodSpec) => s.os?.name === 'windows';

/** a pod in a user namespace (hostUsers: false), which some checks relax for from v1.35 */
export const inUserNamespace = (s: CoreV1PodSpec) => s.hostUsers === false;

/** the behaviour of `run` from v1.25 on: Windows pods pass */
export const unlessWindows = (run: CheckFn): CheckFn => (m, s) => isWindows(s) ? undefined : run(m, s);

/** the behaviour of `run` from v1.35 on: pods in a user namespace pass */
export const unlessUserNamespace = (run: CheckFn): CheckFn => (m, s) => inUserNamespace(s) ? undefined : run(m, s);
