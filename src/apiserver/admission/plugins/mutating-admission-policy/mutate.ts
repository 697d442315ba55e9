// One mutation applied to the object under admission: an ApplyConfiguration merged as
// server-side apply merges a configuration (maps and structs field by field, list-maps by their
// keys, sets by value, atomic values replaced), or a JSONPatch's operations applied in order.

import type { CelResult } from '@bufbuild/cel';
import type { KubeObject } from '../../../../api/object.ts';
import { applyJsonPatch } from '../../../../patch/json-patch.ts';
import { mergeConfig } from '../../../../apply/walk.ts';
import { shapeOf } from '../../../../apply/shape.ts';
import { schemaNode } from '../../../../schema/schema-walker.ts';
import type { ResourceInfo } from '../../../../schema/types.ts';
import { cel } from '../../../../schema/cel/on-demand.ts';

/** a mutation that cannot be applied; the message is what the refusal says after "denied request: " */
export class MutationError extends Error {}

export function applyMutation(patchType: string, result: CelResult, object: KubeObject, info: ResourceInfo): KubeObject {
  if (cel().isCelError(result)) throw new MutationError(result.message);
  if (patchType === 'ApplyConfiguration') {
    const config = cel().fromCelValue(result);
    if (typeof config !== 'object' || config === null || Array.isArray(config)) {
      throw new MutationError(`unsupported return type from ApplyConfiguration expression: ${cel().celTypeName(result)}`);
    }
    return mergeConfig(object, config, shapeOf(schemaNode(info.definition))) as KubeObject;
  }
  if (patchType === 'JSONPatch') {
    const ops = cel().fromCelValue(result);
    if (!Array.isArray(ops)) throw new MutationError('type mismatch: JSONPatchType.expression should evaluate to array');
    try {
      return applyJsonPatch(object, ops) as KubeObject;
    } catch (err) {
      throw new MutationError(`JSON Patch: ${(err as Error).message}`);
    }
  }
  throw new MutationError(`unsupported patch type ${JSON.stringify(patchType)}`);
}
