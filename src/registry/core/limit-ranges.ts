// LimitRanges: a Container item's defaults are filled when it is written (a default limit from
// max, a default request from the default limit or min), so LimitRanger and
// `kubectl describe limits` see them as Kubernetes stores them; then checked
// (validation/limit-range.ts).

import { strategyWith } from '../strategy.ts';
import { isObject, type KubeObject } from '../../api/object.ts';
import { defaultLimitRangeItem, type LimitRangeItem } from '../../api/limit-range/defaults.ts';
import { validateLimitRange } from '../validation/limit-range.ts';

function defaultItems(obj: KubeObject): void {
  const limits = isObject(obj.spec) ? obj.spec.limits : undefined;
  if (Array.isArray(limits)) for (const item of limits) if (isObject(item)) defaultLimitRangeItem(item as LimitRangeItem);
}

export const limitRangeStrategy = strategyWith({
  allowCreateOnUpdate: true,
  prepareForCreate: defaultItems,
  prepareForUpdate: defaultItems,
  validateCreate: validateLimitRange,
  validateUpdate: validateLimitRange,
});
