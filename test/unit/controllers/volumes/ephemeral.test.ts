import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ephemeralClaims, ownedByPod } from '../../../../src/controllers/volumes/ephemeral.ts';

test('each generic ephemeral volume needs a claim <pod>-<volume> from its template, controlled by the pod', () => {
  const pod = {
    metadata: { name: 'db', namespace: 'ns', uid: 'u1' },
    spec: { containers: [], volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'scratch', ephemeral: { volumeClaimTemplate: { metadata: { annotations: { a: 'b' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast' } } } }] },
  };
  const [c, ...rest] = ephemeralClaims(pod as never);
  assert.equal(rest.length, 0);
  assert.equal(c!.metadata!.name, 'db-scratch');
  assert.equal(c!.metadata!.namespace, 'ns');
  assert.deepEqual(c!.metadata!.annotations, { a: 'b' });
  assert.equal(c!.spec!.storageClassName, 'fast');
  assert.deepEqual(c!.metadata!.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'db', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
  assert.equal(ownedByPod(c!, pod), true);
  assert.equal(ownedByPod(c!, { metadata: { uid: 'other' } }), false);
});
