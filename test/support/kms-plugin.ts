// A KMS v2 plugin for tests and benches (grpc-js on a unix socket): AES-GCM under a KEK per key
// ID, with the calls counted, and its key ID and health settable, so a test can move the key or
// make the plugin unhealthy. Its handlers take and answer encoded messages through the same
// encoders the provider uses (the service's serializers pass bytes through).

import { Server, ServerCredentials } from '@grpc/grpc-js';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { kmsService } from '../../src/storage/encryption/kms-v2.ts';
import { decodeDecryptRequest, decodeEncryptRequest, encodeDecryptResponse, encodeEncryptResponse, encodeStatusResponse } from '../../src/storage/encryption/kms-v2-messages.ts';

export interface KmsPlugin {
  state: { keyId: string; healthz: string; encrypts: number; decrypts: number };
  keks: Map<string, Buffer>;
  stop(): void;
}

export async function startKmsPlugin(socket: string): Promise<KmsPlugin> {
  const keks = new Map<string, Buffer>([['kek-1', randomBytes(32)]]);
  const state = { keyId: 'kek-1', healthz: 'ok', encrypts: 0, decrypts: 0 };
  const server = new Server();
  server.addService(kmsService as never, {
    Status: (_: unknown, cb: Function) => cb(null, Buffer.from(encodeStatusResponse({ version: 'v2', healthz: state.healthz, keyId: state.keyId }))),
    Encrypt: (call: { request: Buffer }, cb: Function) => {
      state.encrypts++;
      const req = decodeEncryptRequest(call.request);
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', keks.get(state.keyId)!, nonce);
      const ct = Buffer.concat([nonce, c.update(req.plaintext), c.final(), c.getAuthTag()]);
      cb(null, Buffer.from(encodeEncryptResponse({ ciphertext: ct, keyId: state.keyId, annotations: { 'kms.example.com/version': Buffer.from('1') } })));
    },
    Decrypt: (call: { request: Buffer }, cb: Function) => {
      state.decrypts++;
      const req = decodeDecryptRequest(call.request);
      const sealed = Buffer.from(req.ciphertext);
      const d = createDecipheriv('aes-256-gcm', keks.get(req.keyId)!, sealed.subarray(0, 12));
      d.setAuthTag(sealed.subarray(sealed.length - 16));
      cb(null, Buffer.from(encodeDecryptResponse({ plaintext: Buffer.concat([d.update(sealed.subarray(12, sealed.length - 16)), d.final()]) })));
    },
  });
  await new Promise<void>((resolve, reject) => server.bindAsync(`unix:${socket}`, ServerCredentials.createInsecure(), err => (err ? reject(err) : resolve())));
  return { state, keks, stop: () => server.forceShutdown() };
}
