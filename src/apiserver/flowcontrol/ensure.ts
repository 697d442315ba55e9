// What the config producer does to one stored object, as kube-apiserver's APF ensurer decides
// it: a mandatory object always gets the bootstrap spec back; a suggested one only while its
// `apf.kubernetes.io/autoupdate-spec` annotation says true (absent or unreadable: only while the
// object is still at generation 1, i.e. nobody edited it), and the annotation is rewritten to say
// which of the two holds. Objects the server once made but no longer suggests are deleted unless
// a user turned their autoupdate off.

import type { KubeObject } from '../../api/object.ts';
import { parseGoBool as goBool } from '../../api/go-bool.ts';
import { autoUpdateAnnotation } from '../../registry/flowcontrol/bootstrap-objects.ts';
import { sameSpec } from '../../registry/flowcontrol/spec-equal.ts';

/** the annotation as kube-apiserver reads it (strconv.ParseBool); absent is unreadable */
export const parseGoBool = (value: string | undefined): boolean | undefined => (value === undefined ? undefined : goBool(value));

export interface EnsureInput {
  /** the stored object */
  current: KubeObject & { spec?: unknown };
  /** the bootstrap spec with the v1 defaults applied */
  want: unknown;
  mandatory: boolean;
  /**
   * for the mandatory `exempt` level: the operator may tune its shares and lendable percent, so
   * only the rest of the spec is compared
   */
  keepExemptTuning?: boolean;
}

/** the object to write back, or undefined when the stored one is as it should be */
export function revise({ current, want, mandatory, keepExemptTuning }: EnsureInput): KubeObject | undefined {
  const annotations = current.metadata.annotations ?? {};
  const autoUpdate = mandatory || (parseGoBool(annotations[autoUpdateAnnotation]) ?? current.metadata.generation === 1);
  const annotationRight = parseGoBool(annotations[autoUpdateAnnotation]) === autoUpdate;
  let wanted = want;
  if (keepExemptTuning) {
    const exempt = (current.spec as { exempt?: { nominalConcurrencyShares?: number; lendablePercent?: number } } | undefined)?.exempt;
    const base = want as { exempt?: object };
    if (exempt) wanted = { ...base, exempt: { ...base.exempt, nominalConcurrencyShares: exempt.nominalConcurrencyShares, lendablePercent: exempt.lendablePercent } };
  }
  const specChanged = autoUpdate && !sameSpec(current.spec, wanted);
  if (annotationRight && !specChanged) return undefined;
  const revised = structuredClone(current);
  if (specChanged) revised.spec = structuredClone(wanted);
  if (!annotationRight) revised.metadata.annotations = { ...annotations, [autoUpdateAnnotation]: String(autoUpdate) };
  return revised;
}

/** an object the server made (it carries the annotation) that it no longer suggests, and whose autoupdate is on */
export function shouldRemove(obj: KubeObject, bootstrapNames: ReadonlySet<string>): boolean {
  const value = obj.metadata.annotations?.[autoUpdateAnnotation];
  if (value === undefined || bootstrapNames.has(obj.metadata.name!)) return false;
  return parseGoBool(value) === true;
}
