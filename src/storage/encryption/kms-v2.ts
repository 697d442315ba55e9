// The KMS v2 provider (envelope encryption, as kube-apiserver's default since 1.29): a random
// 32-byte seed is encrypted once by the KMS plugin (its Encrypt over gRPC on a unix socket), and
// each write derives its own data key from the seed with HKDF-SHA256 expand, the info being 32
// random bytes kept at the front of the encrypted data, then seals with AES-256-GCM and the
// storage key as additional data. The value is `k8s:enc:kms:v2:<name>:` + an EncryptedObject.
// Reads ask the plugin to decrypt a seed they have not seen and keep the answer. A new key ID
// in the plugin's Status makes a new seed, and values under an older key ID read as stale.

import { credentials, makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  decodeDecryptResponse, decodeEncryptedObject, decodeEncryptResponse, decodeStatusResponse, dekSourceType,
  encodeDecryptRequest, encodeEncryptedObject, encodeEncryptRequest, encodeStatusRequest, type Annotations,
} from './kms-v2-messages.ts';

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const unary = <Req, Res>(name: string, enc: (r: Req) => Uint8Array, dec: (b: Uint8Array) => Res) => ({
  path: `/v2.KeyManagementService/${name}`, requestStream: false, responseStream: false,
  requestSerialize: (r: Req) => asBuffer(enc(r)), requestDeserialize: (b: Buffer) => b,
  responseSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => dec(b),
});

/** the service as grpc-js takes it (also for plugins written in tests) */
export const kmsService = {
  Status: unary('Status', encodeStatusRequest, decodeStatusResponse),
  Encrypt: unary('Encrypt', encodeEncryptRequest, decodeEncryptResponse),
  Decrypt: unary('Decrypt', encodeDecryptRequest, decodeDecryptResponse),
};
const KmsClient = makeGenericClientConstructor(kmsService, 'KeyManagementService');

interface Seed { plain: Buffer; encrypted: Uint8Array; keyId: string; annotations: Annotations }

/** HKDF-SHA256 expand of one block: the 32-byte data key for one value */
function dataKey(seed: Buffer, info: Uint8Array): Buffer {
  return createHmac('sha256', seed).update(info).update(Buffer.of(1)).digest();
}

export interface KmsV2Provider {
  /** the prefix after which its values start */
  prefix: string;
  seal(plain: Uint8Array, key: string): Promise<Uint8Array>;
  /** the plaintext, and whether it was sealed under a key ID other than the current one */
  open(sealed: Uint8Array, key: string): Promise<{ data: Uint8Array; stale: boolean }>;
  /** the plugin's health, as kube-apiserver's kms-providers check reports it */
  healthz(): Promise<void>;
  close(): void;
}

export function kmsV2Provider(opts: { name: string; endpoint: string; timeoutMs: number }): KmsV2Provider {
  const client = new KmsClient(opts.endpoint.replace(/^unix:\/\//, 'unix:'), credentials.createInsecure()) as Client & Record<string, Function>;
  const call = <Res>(method: string, req: unknown): Promise<Res> => new Promise((resolve, reject) => {
    client[method]!(req, { deadline: Date.now() + opts.timeoutMs }, (err: ServiceError | null, res: Res) => {
      if (err) reject(new Error(`KMS provider ${opts.name} ${method.toLowerCase()} failed: ${err.details || err.message}`)); else resolve(res);
    });
  });
  const seeds = new Map<string, Buffer>();
  let current: Promise<Seed> | undefined;
  let currentKeyId: string | undefined;

  const status = async () => {
    const s = await call<{ version: string; healthz: string; keyId: string }>('Status', {});
    if (s.version !== 'v2') throw new Error(`KMS provider ${opts.name} api version ${s.version} is not v2`);
    if (s.healthz !== 'ok') throw new Error(`KMS provider ${opts.name} is not healthy: ${s.healthz}`);
    if (!s.keyId) throw new Error(`KMS provider ${opts.name} returned an empty key ID`);
    if (currentKeyId !== undefined && s.keyId !== currentKeyId) current = undefined; // rotated: a new seed
    currentKeyId = s.keyId;
    return s;
  };
  const newSeed = async (): Promise<Seed> => {
    const plain = randomBytes(32);
    const r = await call<{ ciphertext: Uint8Array; keyId: string; annotations: Annotations }>('Encrypt', { plaintext: plain, uid: randomUUID() });
    if (!r.keyId) throw new Error(`KMS provider ${opts.name} returned an empty key ID`);
    seeds.set(asBuffer(r.ciphertext).toString('base64'), plain);
    return { plain, encrypted: r.ciphertext, keyId: r.keyId, annotations: r.annotations };
  };
  // the key ID moves at most once a minute, as kube-apiserver polls it
  const poll = setInterval(() => { status().catch(() => {}); }, 60_000);
  poll.unref();

  return {
    prefix: `k8s:enc:kms:v2:${opts.name}:`,
    async seal(plain, key) {
      if (currentKeyId === undefined) await status();
      const seed = await (current ??= newSeed().catch(err => { current = undefined; throw err; }));
      const info = randomBytes(32);
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', dataKey(seed.plain, info), nonce);
      c.setAAD(Buffer.from(key));
      const body = Buffer.concat([info, nonce, c.update(plain), c.final(), c.getAuthTag()]);
      return encodeEncryptedObject({ encryptedData: body, keyID: seed.keyId, encryptedDEKSource: seed.encrypted, annotations: seed.annotations, encryptedDEKSourceType: dekSourceType.hkdfSha256XNonceAesGcmSeed });
    },
    async open(sealed, key) {
      const o = decodeEncryptedObject(sealed);
      if (!o.keyID) throw new Error('failed to validate key id: keyID is empty');
      const id = asBuffer(o.encryptedDEKSource).toString('base64');
      let source = seeds.get(id);
      if (!source) {
        const r = await call<{ plaintext: Uint8Array }>('Decrypt', { ciphertext: o.encryptedDEKSource, uid: randomUUID(), keyId: o.keyID, annotations: o.annotations });
        source = asBuffer(r.plaintext);
        seeds.set(id, source);
      }
      let data = asBuffer(o.encryptedData);
      let dek: Buffer;
      if (o.encryptedDEKSourceType === dekSourceType.hkdfSha256XNonceAesGcmSeed) {
        dek = dataKey(source, data.subarray(0, 32));
        data = data.subarray(32);
      } else {
        dek = source;
      }
      if (data.length < 28) throw new Error('the stored data was shorter than the required size');
      const d = createDecipheriv('aes-256-gcm', dek, data.subarray(0, 12));
      d.setAAD(Buffer.from(key));
      d.setAuthTag(data.subarray(data.length - 16));
      let plain: Buffer;
      try { plain = Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]); } catch { throw new Error('cipher: message authentication failed'); }
      return { data: plain, stale: currentKeyId !== undefined && o.keyID !== currentKeyId };
    },
    async healthz() { await status(); },
    close() { clearInterval(poll); client.close(); },
  };
}
