import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversionReviewCaller } from '../../../../src/apiserver/crd/conversion-webhook.ts';
import { startConversionWebhook } from '../../../support/conversion-webhook.ts';

const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u1', desiredAPIVersion: 'example.com/v2', objects: [{ apiVersion: 'example.com/v1', kind: 'T', metadata: { name: 'a' }, spec: { hostPort: 'h:1' } }] } };

test('the review goes over HTTPS to a url or a service\'s endpoint, checked against caBundle, with the 30 s timeout', async t => {
  const hook = await startConversionWebhook();
  t.after(() => hook.close());
  const noService = conversionReviewCaller(async () => { throw new Error('unused'); });
  const answer = await noService({ url: hook.url('/convert'), caBundle: hook.caBundle })(review) as any;
  assert.deepEqual(answer.response.convertedObjects[0].spec, { host: 'h', port: 1 });
  assert.equal(hook.received.length, 1);

  // a service is dialled at the endpoint the resolver picks, its certificate checked for <name>.<namespace>.svc
  const port = Number(new URL(hook.url('/')).port);
  const asked: unknown[] = [];
  const viaService = conversionReviewCaller(async (ns, name, p) => { asked.push([ns, name, p]); return { host: '127.0.0.1', port }; });
  await viaService({ service: { namespace: 'default', name: 'converter', path: '/convert', port: 443 }, caBundle: hook.caBundle })(review);
  assert.deepEqual(asked, [['default', 'converter', 443]]);
  assert.equal(hook.received.at(-1)!.path, '/convert');

  // no bundle (a blank one counts as none): the system roots, which do not know the test's CA
  const blank = Buffer.from('  \n').toString('base64');
  await assert.rejects(noService({ url: hook.url('/convert'), caBundle: blank })(review),
    { message: `Post "${hook.url('/convert')}?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority` });
  hook.on('/empty', () => ({ status: 200, body: '' }));
  await assert.rejects(noService({ url: hook.url('/empty'), caBundle: hook.caBundle })(review), { message: '0-length response with status code: 200 and content type: text/plain' });
});
