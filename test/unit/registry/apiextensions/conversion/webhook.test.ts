import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../../src/api/object.ts';
import { convertByWebhook } from '../../../../../src/registry/apiextensions/conversion/webhook.ts';
import { conversionReviewVersion, convertedObjectsOf } from '../../../../../src/registry/apiextensions/conversion/review.ts';

const obj = (name: string, apiVersion = 'example.com/v1', extra: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion, kind: 'Target', metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', labels: { a: '1' } }, spec: { n: name }, ...extra });

type Review = { apiVersion: string; kind: string; request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] }; response: unknown };

/** a webhook that converts by rewriting apiVersion, with `tweak` applied to each answer */
function hook(tweak: (answer: { apiVersion: string; kind: string; response: Record<string, any> }, review: Review) => void = () => {}, versions = ['v1']) {
  const reviews: Review[] = [];
  return {
    reviews,
    cfg: {
      conversionReviewVersions: versions,
      uid: () => `review-${reviews.length + 1}`,
      call: async (r: Record<string, unknown>) => {
        const review = r as unknown as Review;
        reviews.push(review);
        const answer = {
          apiVersion: review.apiVersion, kind: 'ConversionReview',
          response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: review.request.objects.map(o => ({ ...structuredClone(o), apiVersion: review.request.desiredAPIVersion })) as any[] },
        };
        tweak(answer, review);
        return answer;
      },
    },
  };
}

test('the review version is the first of the CRD\'s list the server knows', () => {
  assert.equal(conversionReviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.equal(conversionReviewVersion(['v1']), 'v1');
  assert.equal(conversionReviewVersion(['v3']), undefined);
});

test('only objects not yet in the desired version go, together, in one review; order is kept', async () => {
  const h = hook();
  const objs = [obj('a'), obj('b', 'example.com/v2'), obj('c')];
  const out = await convertByWebhook(h.cfg, objs, 'example.com/v2', true);
  assert.equal(h.reviews.length, 1);
  const review = h.reviews[0]!;
  assert.deepEqual([review.apiVersion, review.kind, review.request.desiredAPIVersion, review.request.uid], ['apiextensions.k8s.io/v1', 'ConversionReview', 'example.com/v2', 'review-1']);
  assert.deepEqual(review.request.objects.map(o => o.metadata.name), ['a', 'c']);
  assert.deepEqual(out.map(o => [o.metadata.name, o.apiVersion]), [['a', 'example.com/v2'], ['b', 'example.com/v2'], ['c', 'example.com/v2']]);
  assert.equal(out[1], objs[1], 'an object already there is not touched');
  // nothing to convert: no call
  await convertByWebhook(h.cfg, [obj('d', 'example.com/v2')], 'example.com/v2', false);
  assert.equal(h.reviews.length, 1);
});

test('a v1beta1 review is sent when that is the CRD\'s first known version, and its answer is not checked for uid or kind', async () => {
  const h = hook(a => { a.apiVersion = 'whatever/v9'; a.response.uid = 'other'; }, ['v1beta1', 'v1']);
  const [out] = await convertByWebhook(h.cfg, [obj('a')], 'example.com/v2', false);
  assert.equal(h.reviews[0]!.apiVersion, 'apiextensions.k8s.io/v1beta1');
  assert.equal(out!.apiVersion, 'example.com/v2');
});

test('no known review version: kube-apiserver\'s error, without calling', async () => {
  const h = hook(() => {}, ['v3']);
  await assert.rejects(convertByWebhook(h.cfg, [obj('a')], 'example.com/v2', false), { message: 'no supported conversion review versions' });
  assert.equal(h.reviews.length, 0);
});

test('a bad answer fails with kube-apiserver\'s message for each check', async () => {
  const cases: Array<[string, Parameters<typeof hook>[0], string]> = [
    ['kind', a => { a.kind = 'AdmissionReview'; }, 'conversion webhook for example.com/v1, Kind=Target failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=AdmissionReview'],
    ['no response', a => { (a as any).response = undefined; }, 'conversion webhook for example.com/v1, Kind=Target failed: no response provided'],
    ['uid', a => { a.response.uid = 'nope'; }, 'conversion webhook for example.com/v1, Kind=Target failed: expected response.uid="review-1", got "nope"'],
    ['failure', a => { a.response.result = { status: 'Failure', message: 'cannot convert that' }; }, 'conversion webhook for example.com/v1, Kind=Target failed: cannot convert that'],
    ['no status', a => { a.response.result = {}; }, "conversion webhook for example.com/v1, Kind=Target failed: response.result.status was '', not 'Success'"],
    ['count', a => { a.response.convertedObjects = []; }, 'conversion webhook for example.com/v1, Kind=Target returned 0 objects, expected 1'],
    ['group/version', a => { a.response.convertedObjects[0].apiVersion = 'example.com/v1'; }, 'conversion webhook for example.com/v1, Kind=Target returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)'],
    ['kind of object', a => { a.response.convertedObjects[0].kind = 'Other'; }, 'conversion webhook for example.com/v1, Kind=Target returned invalid object at index 0: invalid kind (expected Target, received Other)'],
    ['name', a => { a.response.convertedObjects[0].metadata.name = 'z'; }, 'conversion webhook for example.com/v1, Kind=Target returned invalid object: must have the same name: a != z'],
    ['uid of object', a => { delete a.response.convertedObjects[0].metadata.uid; }, 'conversion webhook for example.com/v1, Kind=Target returned invalid object: must have the same UID: uid-a != '],
    ['label type', a => { a.response.convertedObjects[0].metadata.labels = { a: 1 }; }, 'conversion webhook for example.com/v1, Kind=Target returned invalid metadata: metadata.labels[a] must be a string, but is int64 in converted object'],
    ['label value', a => { a.response.convertedObjects[0].metadata.labels = { a: 'no way' }; }, /^conversion webhook for example\.com\/v1, Kind=Target returned invalid metadata: metadata\.labels: Invalid value: "no way": a valid label must be/ as unknown as string],
    ['no kind', a => { delete a.response.convertedObjects[0].kind; }, /^Object 'Kind' is missing in '\{"apiVersion":"example.com\/v2"/ as unknown as string],
  ];
  for (const [what, tweak, message] of cases) {
    const h = hook(tweak);
    await assert.rejects(convertByWebhook(h.cfg, [obj('a')], 'example.com/v2', false), { message }, what);
  }
});

test('list items that fail are named by index, as for a list', async () => {
  const h = hook(a => { a.response.convertedObjects[1].metadata.namespace = 'elsewhere'; });
  await assert.rejects(convertByWebhook(h.cfg, [obj('a'), obj('b'), obj('c', 'example.com/v2')], 'example.com/v2', true),
    { message: 'conversion webhook for example.com/v1, Kind=Target returned invalid converted object at index 1: must have the same namespace: ns != elsewhere' });
  const h2 = hook(a => { a.response.convertedObjects[0].metadata.labels = 'x'; });
  await assert.rejects(convertByWebhook(h2.cfg, [obj('a')], 'example.com/v2', true),
    { message: 'conversion webhook for example.com/v1, Kind=Target returned invalid metadata in object at index 0: invalid metadata.labels of type string in converted object' });
});

test('the webhook may change labels and annotations only: everything else of metadata is put back', async () => {
  const h = hook(a => {
    const m = a.response.convertedObjects[0].metadata;
    m.labels = { b: '2' };
    m.annotations = { note: 'converted' };
    m.resourceVersion = '999';
    m.generation = 42;
  });
  const [out] = await convertByWebhook(h.cfg, [obj('a')], 'example.com/v2', false);
  assert.deepEqual(out!.metadata, { name: 'a', namespace: 'ns', uid: 'uid-a', resourceVersion: '7', labels: { b: '2' }, annotations: { note: 'converted' } });
  const dropped = hook(a => { delete a.response.convertedObjects[0].metadata.labels; });
  assert.equal((await convertByWebhook(dropped.cfg, [obj('a')], 'example.com/v2', false))[0]!.metadata.labels, undefined);
});

test('an answer\'s converted objects are taken from a Success review', () => {
  assert.deepEqual(convertedObjectsOf('v1', 'u', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: 'u', result: { status: 'Success' }, convertedObjects: [1] } }), [1]);
  assert.throws(() => convertedObjectsOf('v1', 'u', 'not an object'), { message: 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=' });
});
