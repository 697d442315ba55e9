// The providers whose keys are in the configuration file, each value laid out as Kubernetes lays
// it out after its prefix `k8s:enc:<provider>:v1:<key name>:`: aescbc is IV(16) + AES-CBC with
// PKCS#7 padding; aesgcm is nonce(12) + AES-GCM sealed with the storage key as additional data;
// secretbox is nonce(24) + XSalsa20-Poly1305 (tweetnacl, as Go's x/crypto/nacl/secretbox).

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';

export interface Cipher {
  seal(plain: Uint8Array, key: string): Uint8Array | Promise<Uint8Array>;
  open(sealed: Uint8Array, key: string): Uint8Array | Promise<Uint8Array>;
}

const aesName = (bytes: number, mode: 'cbc' | 'gcm') => `aes-${bytes * 8}-${mode}`;

export function aescbc(secret: Buffer): Cipher {
  const algorithm = aesName(secret.length, 'cbc');
  return {
    seal(plain) {
      const iv = randomBytes(16);
      const c = createCipheriv(algorithm, secret, iv);
      return Buffer.concat([iv, c.update(plain), c.final()]);
    },
    open(sealed) {
      if (sealed.length < 16 || sealed.length % 16 !== 0) throw new Error('the stored data is not a multiple of the block size');
      const d = createDecipheriv(algorithm, secret, sealed.subarray(0, 16));
      try {
        return Buffer.concat([d.update(sealed.subarray(16)), d.final()]);
      } catch {
        throw new Error('invalid PKCS7 data (empty or not padded)');
      }
    },
  };
}

export function aesgcm(secret: Buffer): Cipher {
  const algorithm = aesName(secret.length, 'gcm');
  return {
    seal(plain, key) {
      const nonce = randomBytes(12);
      const c = createCipheriv(algorithm as 'aes-256-gcm', secret, nonce);
      c.setAAD(Buffer.from(key));
      const body = Buffer.concat([c.update(plain), c.final()]);
      return Buffer.concat([nonce, body, c.getAuthTag()]);
    },
    open(sealed, key) {
      if (sealed.length < 12 + 16) throw new Error('the stored data was shorter than the required size');
      const d = createDecipheriv(algorithm as 'aes-256-gcm', secret, sealed.subarray(0, 12));
      d.setAAD(Buffer.from(key));
      d.setAuthTag(sealed.subarray(sealed.length - 16));
      try {
        return Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()]);
      } catch {
        throw new Error('cipher: message authentication failed');
      }
    },
  };
}

export function secretbox(secret: Buffer): Cipher {
  const key = new Uint8Array(secret);
  return {
    seal(plain) {
      const nonce = randomBytes(24);
      return Buffer.concat([nonce, nacl.secretbox(plain, nonce, key)]);
    },
    open(sealed) {
      if (sealed.length < 24) throw new Error('the stored data was shorter than the required size');
      const out = nacl.secretbox.open(sealed.subarray(24), sealed.subarray(0, 24), key);
      if (!out) throw new Error('output array was not large enough for encryption');
      return out;
    },
  };
}
