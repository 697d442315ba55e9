// Stored custom resources brought to the version a request reads, before the registry's usual
// (synchronous) decode: values stored in another version are converted — those of one read in
// one call of the converter, so a list page is one ConversionReview — and written back as values
// in the version asked for, under the same key and revisions. The rest of the read path (the
// JSON splice, selectors, corrupt values) then works on them unchanged. A watch event's
// converted value is kept beside the stored one while that lives, per converter (one CRD
// generation), so the watchers of one version share one conversion, as they share
// kube-apiserver's per-version watch cache; reads ask the webhook each time, as reads from
// etcd do.

import type { KubeObject } from '../../../api/object.ts';
import { goJson } from '../../../codec/go-json.ts';
import type { KeyValue } from '../../../storage/interface.ts';
import { valueBytes, valueLength } from '../../../storage/packed-value.ts';
import type { ReadHook } from '../../stored-object.ts';
import type { CustomResourceConverter } from './converter.ts';

const headProbe = 256;
const apiVersionKey = /"apiVersion":"([^"\\]*)"/;
const dec = new TextDecoder();
const enc = new TextEncoder();

type Converted = WeakMap<KeyValue, Map<string, Promise<KeyValue>>>;
const byConverter = new WeakMap<CustomResourceConverter, Converted>();

/** the stored object's apiVersion from its first bytes (undefined: the value must be parsed) */
function storedApiVersion(kv: KeyValue): string | undefined {
  const head = dec.decode(valueBytes(kv, 0, Math.min(headProbe, valueLength(kv))));
  return apiVersionKey.exec(head)?.[1];
}

function parsed(kv: KeyValue): KubeObject | undefined {
  try {
    const obj = JSON.parse(dec.decode(kv.value)) as KubeObject;
    return obj && typeof obj === 'object' && typeof obj.metadata === 'object' ? obj : undefined;
  } catch {
    // left as it is: the decode after this reports a corrupt object in the registry's words
    return undefined;
  }
}

/**
 * `kvs` as values of `apiVersion`. `list`: they are a list's items (errors name them by index);
 * `shared`: watch events, whose conversions are kept for the other watchers; `onRead`: what
 * reads do to a stored object (its stored version's defaults), done before it is converted, as
 * kube-apiserver's storage decoder defaults before it converts. Rejects with the converter's message.
 */
export async function valuesInVersion(conv: CustomResourceConverter, kvs: KeyValue[], apiVersion: string, how: { list?: boolean; shared?: boolean; onRead?: ReadHook } = {}): Promise<KeyValue[]> {
  let converted = byConverter.get(conv);
  if (!converted) byConverter.set(conv, converted = new WeakMap());
  const out: Array<KeyValue | Promise<KeyValue>> = [...kvs];
  const pending: Array<{ at: number; kv: KeyValue; obj: KubeObject }> = [];
  kvs.forEach((kv, at) => {
    const held = how.shared ? converted.get(kv)?.get(apiVersion) : undefined;
    if (held) { out[at] = held; return; }
    const stored = storedApiVersion(kv);
    if (stored !== undefined && !conv.converts(stored, apiVersion)) return;
    const obj = parsed(kv);
    if (!obj || !conv.converts(String(obj.apiVersion), apiVersion)) return;
    how.onRead?.(obj);
    pending.push({ at, kv, obj });
  });
  if (pending.length) {
    const batch = conv.convert(pending.map(p => p.obj), apiVersion, how.list);
    pending.forEach(({ at, kv }, i) => {
      const one = batch.then(objs => ({ key: kv.key, value: enc.encode(goJson(objs[i])), createRevision: kv.createRevision, modRevision: kv.modRevision }));
      out[at] = one;
      if (!how.shared) return;
      let versions = converted.get(kv);
      if (!versions) converted.set(kv, versions = new Map());
      versions.set(apiVersion, one);
      // a failed conversion is not remembered: the next read asks again
      one.catch(() => { if (converted.get(kv)?.get(apiVersion) === one) converted.get(kv)!.delete(apiVersion); });
    });
  }
  return Promise.all(out);
}

/** one object (being written, or just written) in `apiVersion` */
export async function objectInVersion<T extends KubeObject>(conv: CustomResourceConverter, obj: T, apiVersion: string): Promise<T> {
  if (obj.apiVersion === apiVersion) return obj;
  const [out] = await conv.convert([obj], apiVersion);
  return out as T;
}
