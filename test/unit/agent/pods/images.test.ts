import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restartBackoff } from '../../../../src/agent/pods/backoff.ts';
import { ensureImage, type PullFailures } from '../../../../src/agent/pods/images.ts';
import { ContainerStartError } from '../../../../src/agent/pods/config-errors.ts';
import type { CriClient } from '../../../../src/agent/cri/client.ts';
import type { Pod } from '../../../../src/agent/pods/types.ts';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../../src/api/log.ts';
import { startImagePullManager } from '../../../../src/agent/images/pull-manager.ts';
import { pullRecordStore, recordFileName } from '../../../../src/agent/images/pull-records.ts';
import type { PullSecret } from '../../../../src/agent/images/keyring.ts';
import type { VerificationPolicy } from '../../../../src/agent/images/pull-policy.ts';

const pod: Pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers: [] } };
const err = 'rpc error: code = NotFound desc = failed to pull and unpack image "reg/x:1": not found';

test('image pulls: ErrImagePull with the runtime\'s error, ImagePullBackOff naming it until the back-off ends, then a new pull', async () => {
  let now = 1_000_000;
  let pulls = 0;
  const cri = { imageStatus: async () => ({}), pullImage: async () => { pulls++; throw new Error(err); } } as unknown as CriClient;
  const backoff = restartBackoff(() => now);
  const failures: PullFailures = new Map();
  const events: string[] = [];
  const attempt = () => ensureImage(cri, pod, { name: 'c', image: 'reg/x:1', imagePullPolicy: 'IfNotPresent' }, backoff, () => now, (_t, r, m) => events.push(`${r}: ${m}`), failures)
    .then(() => assert.fail('pulled'), (e: ContainerStartError) => [e.reason, e.message]);

  assert.deepEqual(await attempt(), ['ErrImagePull', err]);
  assert.deepEqual(events.splice(0), ['Pulling: Pulling image "reg/x:1"', `Failed: Failed to pull image "reg/x:1": ${err}`, 'Failed: Error: ErrImagePull']);
  now += 5_000;
  assert.deepEqual(await attempt(), ['ImagePullBackOff', `Back-off pulling image "reg/x:1": ErrImagePull: ${err}`]);
  assert.deepEqual(events.splice(0), ['BackOff: Back-off pulling image "reg/x:1"']);
  assert.equal(pulls, 1);
  // 10 s after the failure the image is pulled again; the next back-off is 20 s
  now += 5_001;
  assert.deepEqual((await attempt())[0], 'ErrImagePull');
  assert.equal(pulls, 2);
  now += 19_000;
  assert.deepEqual((await attempt())[0], 'ImagePullBackOff');
  now += 1_001;
  assert.deepEqual((await attempt())[0], 'ErrImagePull');
  assert.equal(pulls, 3);
});

test('pull policy Never with the image absent: ErrImageNeverPull in the kubelet\'s words', async () => {
  const cri = { imageStatus: async () => ({}) } as unknown as CriClient;
  await assert.rejects(ensureImage(cri, pod, { name: 'c', image: 'reg/x:1', imagePullPolicy: 'Never' }, restartBackoff(() => 0), () => 0, () => undefined),
    (e: ContainerStartError) => e.reason === 'ErrImageNeverPull' && e.message === 'Container image "reg/x:1" is not present with pull policy of Never');
});

// --- KubeletEnsureSecretPulledImages: the pull records and the verification policy ---

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret = (name: string, uid: string, user: string, password: string): PullSecret =>
  ({ metadata: { name, namespace: 'ns', uid }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(JSON.stringify({ auths: { 'registry.io': { username: user, password } } })) } });

/** a runtime whose registry.io/private images need user "alice" and password "pw"; others pull anonymously */
function registryRuntime(dir: string) {
  const images = new Map<string, string>();
  const pulls: Array<{ image: string; user?: string; intentDuringPull: boolean }> = [];
  const cri = {
    imageStatus: async (req: { image: { image: string } }) => ({ image: images.has(req.image.image) ? { id: images.get(req.image.image) } : undefined }),
    listImages: async () => ({ images: [...images].map(([tag, id]) => ({ id, repoTags: [tag], repoDigests: [] })) }),
    pullImage: async (req: { image: { image: string }; auth?: { username: string; password: string } }) => {
      const image = req.image.image;
      const intents = await readdir(join(dir, 'image_manager', 'pulling'));
      pulls.push({ image, user: req.auth?.username, intentDuringPull: intents.includes(recordFileName(image)) });
      if (image.startsWith('registry.io/private/') && !(req.auth?.username === 'alice' && req.auth.password === 'pw')) {
        throw new Error(`rpc error: code = Unknown desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials`);
      }
      const id = `sha256:${image.length.toString(16).padStart(64, '0')}`;
      images.set(image, id);
      return { imageRef: id };
    },
  };
  return { cri: cri as unknown as CriClient, images, pulls };
}

async function pullsFixture(t: { after(f: () => Promise<void>): void }, policy: VerificationPolicy = 'NeverVerifyPreloadedImages') {
  const dir = await mkdtemp(join(tmpdir(), 'agent-records-images-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const rt = registryRuntime(dir);
  const manager = await startImagePullManager({ store: await pullRecordStore(dir), policy, allowlist: [], now: () => Date.UTC(2026, 10, 27), log: silentLogger, listImages: async () => (await rt.cri.listImages({})).images! as never });
  const events: string[] = [];
  const run = (name: string, image: string, policyName: 'IfNotPresent' | 'Never', secrets: PullSecret[]) => {
    const p: Pod = { metadata: { name, namespace: 'ns', uid: `uid-${name}` }, spec: { containers: [], imagePullSecrets: secrets.map(s => ({ name: s.metadata.name })) } };
    return ensureImage(rt.cri, p, { name: 'c', image, imagePullPolicy: policyName }, restartBackoff(() => 0), () => 0, (_t, r, m) => events.push(`${r}: ${m}`), new Map(), { manager, secrets: async () => secrets })
      .then(ref => ({ ref }), (e: ContainerStartError) => ({ reason: e.reason, message: e.message }));
  };
  const pulled = async (imageRef: string) => JSON.parse(await readFile(join(dir, 'image_manager', 'pulled', recordFileName(imageRef)), 'utf8'));
  return { dir, rt, run, events, pulled };
}

test('a private image pulled with a pod\'s secret is recorded with it; another pod may use it only with the same credentials', async t => {
  const f = await pullsFixture(t);
  const alice = secret('alice', 'uid-a', 'alice', 'pw');
  const img = 'registry.io/private/app:1';
  const first = await f.run('a', img, 'IfNotPresent', [alice]);
  assert.ok('ref' in first, JSON.stringify(first));
  assert.deepEqual(f.rt.pulls, [{ image: img, user: 'alice', intentDuringPull: true }], 'the intent exists while the pull runs');
  assert.deepEqual(await readdir(join(f.dir, 'image_manager', 'pulling')), [], 'and is gone after it');
  const record = await f.pulled(first.ref);
  assert.deepEqual(record.credentialMapping, { 'registry.io/private/app': { kubernetesSecrets: [{ uid: 'uid-a', namespace: 'ns', name: 'alice', credentialHash: record.credentialMapping['registry.io/private/app'].kubernetesSecrets[0].credentialHash }] } });
  assert.match(record.credentialMapping['registry.io/private/app'].kubernetesSecrets[0].credentialHash, /^[0-9a-f]{64}$/);

  // a pod with the same secret uses the image as it is
  f.events.length = 0;
  assert.deepEqual(await f.run('a2', img, 'IfNotPresent', [alice]), { ref: first.ref });
  assert.deepEqual(f.events, [`Pulled: Container image "${img}" already present on machine and can be accessed by the pod`]);
  assert.equal(f.rt.pulls.length, 1);

  // a pod without credentials must pull, and the registry refuses it
  const mallory = await f.run('m', img, 'IfNotPresent', []);
  assert.equal((mallory as { reason: string }).reason, 'ErrImagePull');
  assert.match((mallory as { message: string }).message, /pull access denied/);
  assert.deepEqual(f.rt.pulls.at(-1), { image: img, user: undefined, intentDuringPull: true });
  assert.deepEqual(await readdir(join(f.dir, 'image_manager', 'pulling')), [], 'a failed pull removes its intent');
  // with pull policy Never it is told the image is not there
  assert.deepEqual(await f.run('m2', img, 'Never', []), { reason: 'ErrImageNeverPull', message: `Container image "${img}" is not present with pull policy of Never` });
  // a pod whose own secret holds the same credentials passes, and its secret joins the record
  const copy = secret('copy', 'uid-c', 'alice', 'pw');
  assert.deepEqual(await f.run('c', img, 'Never', [copy]), { ref: first.ref });
  assert.deepEqual((await f.pulled(first.ref)).credentialMapping['registry.io/private/app'].kubernetesSecrets.map((s: { name: string }) => s.name), ['alice', 'copy']);
  // a pod with wrong credentials pulls with them and fails
  const wrong = await f.run('w', img, 'IfNotPresent', [secret('alice', 'uid-a2', 'alice', 'guess')]);
  assert.equal((wrong as { reason: string }).reason, 'ErrImagePull');
  assert.equal(f.rt.pulls.at(-1)?.user, 'alice');
});

test('an anonymous pull makes the image every pod\'s; NeverVerify trusts what is present; preloaded images pass by default', async t => {
  const f = await pullsFixture(t);
  const pub = await f.run('p', 'registry.io/public/tool:2', 'IfNotPresent', []);
  assert.ok('ref' in pub);
  assert.deepEqual((await f.pulled(pub.ref)).credentialMapping, { 'registry.io/public/tool': { nodePodsAccessible: true } });
  assert.deepEqual(await f.run('q', 'registry.io/public/tool:2', 'Never', [secret('x', 'uid-x', 'bob', 'b')]), { ref: pub.ref });
  // an image the agent never pulled (preloaded) is used as it is under the default policy
  f.rt.images.set('registry.io/private/preloaded:1', 'sha256:pre');
  assert.deepEqual(await f.run('r', 'registry.io/private/preloaded:1', 'Never', []), { ref: 'sha256:pre' });

  const always = await pullsFixture(t, 'AlwaysVerify');
  always.rt.images.set('registry.io/private/preloaded:1', 'sha256:pre');
  assert.equal(((await always.run('r', 'registry.io/private/preloaded:1', 'IfNotPresent', [])) as { reason: string }).reason, 'ErrImagePull', 'AlwaysVerify: pulled again');

  const never = await pullsFixture(t, 'NeverVerify');
  await never.run('a', 'registry.io/private/app:1', 'IfNotPresent', [secret('alice', 'uid-a', 'alice', 'pw')]);
  assert.ok('ref' in await never.run('m', 'registry.io/private/app:1', 'Never', []), 'NeverVerify: anyone on the node');
});

test('at start: an intent left by an interrupted run becomes a record without credentials (pods prove theirs), records of lost images go', async t => {
  const f = await pullsFixture(t);
  const store = await pullRecordStore(f.dir);
  await store.writeIntent('registry.io/private/app:1');
  await store.writePulled({ lastUpdatedTime: '2026-01-01T00:00:00Z', imageRef: 'sha256:gone', credentialMapping: { 'registry.io/old': { nodePodsAccessible: true } } });
  f.rt.images.set('registry.io/private/app:1', 'sha256:app');
  const manager = await startImagePullManager({ store, policy: 'NeverVerifyPreloadedImages', allowlist: [], now: () => Date.UTC(2026, 10, 27), log: silentLogger, listImages: async () => (await f.rt.cri.listImages({})).images! as never });
  assert.deepEqual(await store.listIntents(), []);
  assert.deepEqual((await store.getPulled('sha256:app'))?.credentialMapping, {});
  assert.deepEqual((await store.listPulled()).map(r => r.imageRef), ['sha256:app'], 'the record of an image the runtime lost is dropped');
  assert.equal(await manager.mustAttemptImagePull('registry.io/private/app:1', 'sha256:app', async () => []), true);
});

test('without the pull manager (the gate off) a present image is used as it is', async () => {
  const cri = { imageStatus: async () => ({ image: { id: 'sha256:x' } }) } as unknown as CriClient;
  const events: string[] = [];
  assert.equal(await ensureImage(cri, pod, { name: 'c', image: 'registry.io/private/app:1', imagePullPolicy: 'Never' }, restartBackoff(() => 0), () => 0, (_t, r, m) => events.push(`${r}: ${m}`)), 'sha256:x');
  assert.deepEqual(events, ['Pulled: Container image "registry.io/private/app:1" already present on machine']);
});

test('a pull secret whose docker config does not parse: ErrImagePull saying why, no pull tried', async t => {
  const f = await pullsFixture(t);
  const broken: PullSecret = { metadata: { name: 'broken', namespace: 'ns', uid: 'uid-b' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64(JSON.stringify({ auths: { 'registry.io': { auth: b64('no-colon') } } })) } };
  assert.deepEqual(await f.run('b', 'registry.io/private/app:1', 'IfNotPresent', [broken]), { reason: 'ErrImagePull', message: 'unable to parse auth field, must be formatted as base64(username:password)' });
  assert.deepEqual(f.rt.pulls, []);
  assert.deepEqual(await readdir(join(f.dir, 'image_manager', 'pulling')), []);
});
