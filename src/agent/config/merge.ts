// Merging a drop-in into the configuration by appendix A's rules, driven by the field table:
// scalars and struct fields one by one, lists replaced whole, maps merged per key (a map of
// lists therefore replaces the list under each key the drop-in names).

import { agentConfigFields, type FieldKind } from './fields.ts';

type Doc = Record<string, unknown>;

function mergeStruct(base: Doc, dropIn: Doc, fields: Record<string, FieldKind>): Doc {
  const out: Doc = { ...base };
  for (const [name, value] of Object.entries(dropIn)) {
    const kind = fields[name];
    const old = out[name];
    if (typeof kind === 'object' && isDoc(value) && isDoc(old)) out[name] = mergeStruct(old, value, kind.struct);
    else if ((kind === 'stringMap' || kind === 'boolMap' || kind === 'mapOfLists') && isDoc(value) && isDoc(old)) out[name] = { ...old, ...value };
    else out[name] = value;
  }
  return out;
}

const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export function mergeConfig(base: Doc, dropIn: Doc): Doc {
  return mergeStruct(base, dropIn, agentConfigFields);
}
