// A body's kind and apiVersion must name the resource the path names (empty means "as the path says").

import { badRequest } from '../../api/status.ts';
import { apiVersionOf, isObject, type KubeObject } from '../../api/object.ts';
import type { ResourceInfo } from '../../schema/types.ts';
import type { RequestContext } from '../context.ts';
import { typeMetaFieldError } from '../../codec/json.ts';

export function checkTypeMeta(ctx: RequestContext, info: ResourceInfo, obj: KubeObject, expectKind: string = info.kind, expectGroup: string = info.group): void {
  for (const field of ['apiVersion', 'kind'] as const) {
    if (obj[field] === null) delete obj[field];
    else if (obj[field] !== undefined && typeof obj[field] !== 'string') throw typeMetaFieldError(field, obj[field]);
  }
  if (!isObject(obj.metadata)) {
    if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
    else throw badRequest(`${expectKind} in version "${ctx.info.version}" cannot be handled as a ${expectKind}: json: cannot unmarshal ${Array.isArray(obj.metadata) ? 'array' : typeof obj.metadata} into Go struct field ${expectKind}.metadata of type v1.ObjectMeta`);
  }
  const wantVersion = expectGroup === info.group ? apiVersionOf(info.group, info.version) : undefined;
  if (obj.apiVersion !== undefined && obj.apiVersion !== '') {
    const want = wantVersion ?? apiVersionOf(expectGroup, 'v1');
    if (obj.apiVersion !== want) {
      throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${want})`);
    }
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== expectKind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${expectKind})`);
  }
}
