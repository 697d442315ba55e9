// The field mask of a pod info call: a google.protobuf.FieldMask from the gRPC metadata, its
// paths checked against the v1.Pod message and applied to each pod returned. Paths name proto
// fields joined by dots (`status.phase`, `status.podIPs`); as FieldMask's rules have it, only
// the last segment may be a repeated field or a map, and a path covers everything below it.
// Embedded (inline) Go structs have no field of their own in JSON, so their fields are read as
// the parent's, as the JSON the codec turns them into has them.

import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { fieldMessage, K, messageInfo, S, type FieldInfo, type MessageInfo } from '../../codec/protobuf/messages.ts';
import { podMessage } from './messages.ts';

/** the metadata key carrying a serialized google.protobuf.FieldMask */
export const fieldMaskBinKey = 'field-mask-bin';
/** the metadata key carrying FieldMask's JSON form: paths joined by commas */
export const fieldMaskKey = 'field-mask';

export class FieldMaskError extends Error {}

/** a mask as a tree: each key a field kept; `true` keeps the whole value */
export type MaskTree = { [field: string]: MaskTree | true };

/** google.protobuf.FieldMask's bytes → its paths (field 1, repeated string) */
export function decodeFieldMask(bytes: Uint8Array): string[] {
  const paths: string[] = [];
  const r = new BinaryReader(bytes);
  try {
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      if (no === 1 && wt === WireType.LengthDelimited) paths.push(r.string());
      else r.skip(wt, no);
    }
  } catch (err) {
    throw new FieldMaskError(`invalid field mask: ${(err as Error).message}`);
  }
  return paths;
}

function findField(info: MessageInfo, name: string): FieldInfo | undefined {
  for (const f of info.fields) {
    if (f.inline && f.kind === K.message) {
      const inner = findField(fieldMessage(f), name);
      if (inner) return inner;
    } else if (f.name === name) return f;
  }
  return undefined;
}

/** a path checked against the message: a message field may be descended, anything else ends it */
function checkPath(path: string): string[] {
  const parts = path.split('.');
  let info: MessageInfo | undefined = messageInfo(podMessage);
  for (const [i, part] of parts.entries()) {
    const f: FieldInfo | undefined = info && part ? findField(info, part) : undefined;
    if (!f) throw new FieldMaskError(`invalid field mask path "${path}": ${part ? `no field "${part}" in ${info ? info.name.split('.').pop() : parts[i - 1]}` : 'empty segment'}`);
    const last = i === parts.length - 1;
    if (!last && (f.repeated || f.kind !== K.message)) throw new FieldMaskError(`invalid field mask path "${path}": "${part}" is ${f.repeated || f.kind === K.map ? 'a repeated field or map' : 'not a message'} and must end the path`);
    info = f.kind === K.message && !f.repeated ? fieldMessage(f) : undefined;
    // Time, Quantity and the like are one JSON value: nothing below them can be selected
    if (info && info.special !== S.none) info = undefined;
  }
  return parts;
}

/** the mask's paths as a tree; no paths → undefined (the whole pod); a bad path → FieldMaskError */
export function parseMask(paths: string[]): MaskTree | undefined {
  const all = paths.flatMap(p => p.split(',')).map(p => p.trim()).filter(p => p !== '');
  if (all.length === 0) return undefined;
  const tree: MaskTree = {};
  for (const path of all) {
    const parts = checkPath(path);
    let node = tree;
    for (const [i, part] of parts.entries()) {
      const at = node[part];
      if (at === true) break;
      if (i === parts.length - 1) { node[part] = true; break; }
      node = (node[part] = at ?? {});
    }
  }
  return tree;
}

/** a copy of `obj` with only what the mask keeps (fields it keeps and the object lacks stay absent) */
export function applyMask(obj: Record<string, unknown>, mask: MaskTree | undefined): Record<string, unknown> {
  if (!mask) return obj;
  const out: Record<string, unknown> = {};
  for (const [k, sub] of Object.entries(mask)) {
    const v = obj[k];
    if (v === undefined) continue;
    if (sub === true) out[k] = v;
    else if (v !== null && typeof v === 'object' && !Array.isArray(v)) out[k] = applyMask(v as Record<string, unknown>, sub);
  }
  return out;
}

/** the mask of a call's metadata values (binary FieldMask values and JSON-form strings) */
export function maskFromMetadata(bin: Array<string | Buffer>, text: Array<string | Buffer>): MaskTree | undefined {
  const paths: string[] = [];
  for (const v of bin) paths.push(...decodeFieldMask(typeof v === 'string' ? Buffer.from(v, 'base64') : v));
  for (const v of text) paths.push(String(v));
  return parseMask(paths);
}
