// From a configuration to what each stored value goes through: for every resource rule, the
// list of transformers in the configured order (each key of a provider is one, carrying its
// `k8s:enc:<provider>:v1:<key>:` prefix; identity has none). Writes use the first. Reads use
// the one whose prefix the value starts with; a value without any encryption prefix is read by
// identity when it is listed, else it is refused. Reading with anything but the first makes the
// value stale: an update that changes nothing still rewrites it, so rotation works by replacing.

import { aescbc, aesgcm, secretbox, type Cipher } from './local-ciphers.ts';
import { kmsV2Provider, type KmsV2Provider } from './kms-v2.ts';
import { ruleFor, type EncryptionConfig, type ProviderConfig } from './config.ts';

const encryptedMarker = Buffer.from('k8s:enc:');

interface Transformer {
  /** '' for identity */
  prefix: Buffer;
  seal(plain: Uint8Array, key: string): Uint8Array | Promise<Uint8Array>;
  open(sealed: Uint8Array, key: string): Uint8Array | Promise<Uint8Array | { data: Uint8Array; stale: boolean }>;
}

export interface ValueTransformer {
  toStorage(plain: Uint8Array, key: string): Promise<Uint8Array>;
  /** throws with the reason when no transformer can read it */
  fromStorage(stored: Uint8Array, key: string): Promise<{ data: Uint8Array; stale: boolean }>;
}

const startsWith = (b: Uint8Array, prefix: Buffer) => b.length >= prefix.length && Buffer.from(b.buffer, b.byteOffset, prefix.length).equals(prefix);

function localTransformer(kind: string, name: string, cipher: Cipher): Transformer {
  const prefix = Buffer.from(`k8s:enc:${kind}:v1:${name}:`);
  return {
    prefix,
    seal: async (plain, key) => Buffer.concat([prefix, await cipher.seal(plain, key)]),
    open: (sealed, key) => cipher.open(sealed.subarray(prefix.length), key),
  };
}

function kmsTransformer(p: KmsV2Provider): Transformer {
  const prefix = Buffer.from(p.prefix);
  return {
    prefix,
    seal: async (plain, key) => Buffer.concat([prefix, await p.seal(plain, key)]),
    open: (sealed, key) => p.open(sealed.subarray(prefix.length), key),
  };
}

const identity: Transformer = { prefix: Buffer.alloc(0), seal: plain => plain, open: sealed => sealed };

function chain(transformers: Transformer[]): ValueTransformer {
  const hasIdentity = transformers.includes(identity);
  return {
    async toStorage(plain, key) {
      return transformers[0]!.seal(plain, key);
    },
    async fromStorage(stored, key) {
      if (!startsWith(stored, encryptedMarker)) {
        if (!hasIdentity) throw new Error('no matching prefix found');
        return { data: stored, stale: transformers[0] !== identity };
      }
      const i = transformers.findIndex(t => t !== identity && startsWith(stored, t.prefix));
      if (i < 0) throw new Error(hasIdentity ? 'identity transformer tried to read encrypted data' : 'no matching prefix found');
      const out = await transformers[i]!.open(stored, key);
      if (out instanceof Uint8Array) return { data: out, stale: i !== 0 };
      return { data: out.data, stale: i !== 0 || out.stale };
    },
  };
}

export interface Transformers {
  /** undefined: the resource is not named by the configuration, its values are stored as they are */
  forResource(group: string, resource: string): ValueTransformer | undefined;
  /** every KMS provider's health (kube-apiserver's kms-providers check) */
  kmsHealth(): Promise<void>;
  close(): void;
}

export function buildTransformers(config: EncryptionConfig): Transformers {
  const kms: KmsV2Provider[] = [];
  const one = (p: ProviderConfig): Transformer[] => {
    if (p.type === 'identity') return [identity];
    if (p.type === 'kms') {
      const provider = kmsV2Provider(p);
      kms.push(provider);
      return [kmsTransformer(provider)];
    }
    const make = p.type === 'aescbc' ? aescbc : p.type === 'aesgcm' ? aesgcm : secretbox;
    return p.keys.map(k => localTransformer(p.type, k.name, make(k.secret)));
  };
  const chains = new Map(config.rules.map(r => [r, chain(r.providers.flatMap(one))]));
  const byResource = new Map<string, ValueTransformer | undefined>();
  return {
    forResource(group, resource) {
      const id = `${resource}.${group}`;
      if (!byResource.has(id)) {
        const rule = ruleFor(config, group, resource);
        byResource.set(id, rule ? chains.get(rule) : undefined);
      }
      return byResource.get(id);
    },
    async kmsHealth() { await Promise.all(kms.map(k => k.healthz())); },
    close() { for (const k of kms) k.close(); },
  };
}
