// The keys service account tokens are signed and verified with. kube-apiserver needs them as
// flags; orch makes an RSA key on first start (`sa.key`, `sa.pub` beside the cluster CA) so a new
// cluster issues tokens at once, and reads it back on later starts so tokens outlive restarts.
// `--service-account-signing-key-file` replaces the signing key, `--service-account-key-file`
// adds keys that verify (tokens of another or an earlier signer).

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../pki/atomic-write.ts';

export type SigningAlg = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface PublicKeyEntry { key: KeyObject; kid: string; alg: SigningAlg }
export interface ServiceAccountKeys {
  signing: { key: KeyObject; kid: string; alg: SigningAlg };
  /** every key a token may be signed with, the signing key's public half first */
  verifying: PublicKeyEntry[];
}

/** the key id kube-apiserver gives a public key: its PKIX DER, SHA-256, base64url */
export function keyId(pub: KeyObject): string {
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** the JWS algorithm of a key: RS256 for RSA, ES256/384/512 by the ECDSA curve */
export function algorithmOf(key: KeyObject): SigningAlg {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
  }
  throw new Error(`unsupported service account key type ${key.asymmetricKeyType}${key.asymmetricKeyDetails?.namedCurve ? ` (${key.asymmetricKeyDetails.namedCurve})` : ''}`);
}

function entry(pub: KeyObject): PublicKeyEntry {
  return { key: pub, kid: keyId(pub), alg: algorithmOf(pub) };
}

/** the public keys of a PEM file: public keys, private keys (their public half) and certificates */
export function publicKeysFromPem(pem: string, path: string): KeyObject[] {
  const blocks = pem.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
  const keys: KeyObject[] = [];
  for (const block of blocks) {
    const type = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(block)![1]!;
    if (type === 'CERTIFICATE') keys.push(new X509Certificate(block).publicKey);
    else if (type.endsWith('PRIVATE KEY')) keys.push(createPublicKey(createPrivateKey(block)));
    else if (type.endsWith('PUBLIC KEY')) keys.push(createPublicKey(block));
  }
  if (!keys.length) throw new Error(`data does not contain any valid RSA or ECDSA public keys: ${path}`);
  return keys;
}

export interface KeyOptions {
  /** where the generated key lives (the certificates directory) */
  dir: string;
  /** --service-account-signing-key-file */
  signingKeyFile?: string;
  /** --service-account-key-file (repeatable) */
  keyFiles?: string[];
}

async function readOrMakeSigningKey(dir: string): Promise<KeyObject> {
  const path = join(dir, 'sa.key');
  try {
    return createPrivateKey(await readFile(path, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await writeFileAtomic(path, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 0o600);
  await writeFileAtomic(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }) as string, 0o644);
  return privateKey;
}

export async function loadServiceAccountKeys(opts: KeyOptions): Promise<ServiceAccountKeys> {
  const priv = opts.signingKeyFile ? createPrivateKey(await readFile(opts.signingKeyFile, 'utf8')) : await readOrMakeSigningKey(opts.dir);
  const pub = createPublicKey(priv);
  const verifying = [entry(pub)];
  for (const file of opts.keyFiles ?? []) {
    for (const k of publicKeysFromPem(await readFile(file, 'utf8'), file)) {
      const e = entry(k);
      if (!verifying.some(v => v.kid === e.kid)) verifying.push(e);
    }
  }
  return { signing: { key: priv, kid: verifying[0]!.kid, alg: verifying[0]!.alg }, verifying };
}
