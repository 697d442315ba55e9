// The image pull records of appendix B (KEP-2535), laid out as the kubelet keeps them under
// `<root-dir>/image_manager/`: `pulling/` holds an ImagePullIntent per image being pulled,
// `pulled/` an ImagePulledRecord per image the agent pulled (keyed by the runtime's image ref),
// with the credentials each image name was pulled with. A file's name is `sha256-` and the hex
// SHA-256 of the image (or image ref); its content is the kubelet.config.k8s.io/v1alpha1 object as
// the kubelet's JSON serializer writes it. Files are written to `<name>.tmp` and renamed, 0600 in
// 0700 directories.

import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { goString } from '../../codec/go-json.ts';
import { rfc3339 } from '../../api/time.ts';
import type { SecretCoordinates } from './keyring.ts';

export const recordsApiVersion = 'kubelet.config.k8s.io/v1alpha1';

export interface ImagePullSecretRecord extends SecretCoordinates { credentialHash: string }
export interface ImagePullServiceAccountRecord { uid: string; namespace: string; name: string }
export interface ImagePullCredentials {
  kubernetesSecrets?: ImagePullSecretRecord[];
  kubernetesServiceAccounts?: ImagePullServiceAccountRecord[];
  /** anyone on the node may use the image: it was pulled without credentials or with the node's */
  nodePodsAccessible?: boolean;
}
export interface ImagePulledRecord {
  /** RFC 3339, seconds */
  lastUpdatedTime: string;
  imageRef: string;
  /** image name without tag or digest → the credentials it was pulled with */
  credentialMapping: Record<string, ImagePullCredentials>;
}

export function recordFileName(image: string): string {
  return `sha256-${createHash('sha256').update(image).digest('hex')}`;
}

const str = goString;
const coords = (c: { uid: string; namespace: string; name: string }) => `"uid":${str(c.uid)},"namespace":${str(c.namespace)},"name":${str(c.name)}`;

function credentialsJson(c: ImagePullCredentials): string {
  const parts: string[] = [];
  if (c.kubernetesSecrets?.length) parts.push(`"kubernetesSecrets":[${c.kubernetesSecrets.map(s => `{${coords(s)},"credentialHash":${str(s.credentialHash)}}`).join(',')}]`);
  if (c.kubernetesServiceAccounts?.length) parts.push(`"kubernetesServiceAccounts":[${c.kubernetesServiceAccounts.map(s => `{${coords(s)}}`).join(',')}]`);
  if (c.nodePodsAccessible) parts.push('"nodePodsAccessible":true');
  return `{${parts.join(',')}}`;
}

/** an ImagePullIntent as the kubelet's serializer writes it (a JSON line) */
export function intentJson(image: string): string {
  return `{"kind":"ImagePullIntent","apiVersion":"${recordsApiVersion}","image":${str(image)}}\n`;
}

export function pulledRecordJson(r: ImagePulledRecord): string {
  const names = Object.keys(r.credentialMapping).sort();
  const mapping = names.length ? `,"credentialMapping":{${names.map(n => `${str(n)}:${credentialsJson(r.credentialMapping[n]!)}`).join(',')}}` : '';
  return `{"kind":"ImagePulledRecord","apiVersion":"${recordsApiVersion}","lastUpdatedTime":${str(r.lastUpdatedTime)},"imageRef":${str(r.imageRef)}${mapping}}\n`;
}

function decode(text: string, kind: string): Record<string, unknown> {
  const doc = JSON.parse(text) as Record<string, unknown>;
  if (doc['kind'] !== kind || doc['apiVersion'] !== recordsApiVersion) throw new Error(`no kind "${String(doc['kind'])}" is registered for version "${String(doc['apiVersion'])}"`);
  return doc;
}

export function parsePulledRecord(text: string): ImagePulledRecord {
  const doc = decode(text, 'ImagePulledRecord');
  return { lastUpdatedTime: String(doc['lastUpdatedTime'] ?? ''), imageRef: String(doc['imageRef'] ?? ''), credentialMapping: (doc['credentialMapping'] ?? {}) as ImagePulledRecord['credentialMapping'] };
}

export interface PullRecordStore {
  writeIntent(image: string): Promise<void>;
  deleteIntent(image: string): Promise<void>;
  intentExists(image: string): Promise<boolean>;
  listIntents(): Promise<string[]>;
  /** undefined when there is none for this ref (or the file names another ref) */
  getPulled(imageRef: string): Promise<ImagePulledRecord | undefined>;
  writePulled(r: ImagePulledRecord): Promise<void>;
  deletePulled(imageRef: string): Promise<void>;
  listPulled(): Promise<ImagePulledRecord[]>;
}

export const recordTime = (ms: number) => rfc3339(ms);

export async function pullRecordStore(rootDir: string): Promise<PullRecordStore> {
  const pulling = join(rootDir, 'image_manager', 'pulling');
  const pulled = join(rootDir, 'image_manager', 'pulled');
  await mkdir(pulling, { recursive: true, mode: 0o700 });
  await mkdir(pulled, { recursive: true, mode: 0o700 });
  const write = async (dir: string, name: string, content: string) => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const target = join(dir, name);
    try {
      await writeFile(`${target}.tmp`, content, { mode: 0o600 });
      await rename(`${target}.tmp`, target);
    } catch (err) {
      await rm(`${target}.tmp`, { force: true });
      throw err;
    }
  };
  const read = (path: string) => readFile(path, 'utf8').catch(err => { if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; throw err; });
  // files the kubelet would read: its prefix, not a temporary one
  const files = async (dir: string) => (await readdir(dir)).filter(n => n.startsWith('sha256-') && !n.endsWith('.tmp')).map(n => join(dir, n));
  return {
    writeIntent: image => write(pulling, recordFileName(image), intentJson(image)),
    deleteIntent: image => rm(join(pulling, recordFileName(image)), { force: true }),
    async intentExists(image) {
      const text = await read(join(pulling, recordFileName(image)));
      return text !== undefined && decode(text, 'ImagePullIntent')['image'] === image;
    },
    async listIntents() {
      const out: string[] = [];
      for (const f of await files(pulling)) {
        const text = await read(f);
        if (text !== undefined) out.push(String(decode(text, 'ImagePullIntent')['image']));
      }
      return out;
    },
    async getPulled(imageRef) {
      const text = await read(join(pulled, recordFileName(imageRef)));
      if (text === undefined) return undefined;
      const r = parsePulledRecord(text);
      return r.imageRef === imageRef ? r : undefined;
    },
    writePulled: r => write(pulled, recordFileName(r.imageRef), pulledRecordJson(r)),
    deletePulled: imageRef => rm(join(pulled, recordFileName(imageRef)), { force: true }),
    async listPulled() {
      const out: ImagePulledRecord[] = [];
      for (const f of await files(pulled)) {
        const text = await read(f);
        if (text !== undefined) out.push(parsePulledRecord(text));
      }
      return out;
    },
  };
}
