// The garbage collector through real kubectl (newest and oldest present) against `orch server`:
// `kubectl delete --cascade=background|foreground|orphan` on ConfigMaps owned by a ConfigMap,
// and an invalid propagationPolicy answered 422 as Kubernetes answers it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const versions = kubectls();
const needsKubectl = requires(versions.length === 0 && 'no kubectl binary found');

async function eventually(fn: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 200));
  }
}

describe('garbage collection through kubectl delete --cascade', needsKubectl, () => {
  let orch: OrchProcess;
  before(async () => { orch = await startOrch(); });
  after(async () => { await orch.stop(); await orch.cleanup(); });

  for (const { label, path: bin } of versions) {
    const ns = `gc-${label.replace('.', '-')}`;
    const k = (args: string[], input?: string) => kubectl(bin, orch.kubeconfig, ['-n', ns, ...args], input);
    const names = async () => ok(await k(['get', 'configmaps', '-o', 'jsonpath={range .items[*]}{.metadata.name} {end}'])).trim().split(/\s+/).filter(n => n && n !== 'kube-root-ca.crt').sort();

    /** an owner and dependents referring to it (blocking ones kept by a finalizer of their own) */
    async function family(owner: string, dependents: Array<{ name: string; block?: boolean }>): Promise<string> {
      ok(await k(['create', 'configmap', owner]));
      const uid = ok(await k(['get', 'configmap', owner, '-o', 'jsonpath={.metadata.uid}']));
      const docs = dependents.map(d => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${d.name}
${d.block ? '  finalizers: ["example.com/hold"]\n' : ''}  ownerReferences:
  - apiVersion: v1
    kind: ConfigMap
    name: ${owner}
    uid: ${uid}
${d.block ? '    blockOwnerDeletion: true\n' : ''}`);
      if (docs.length) ok(await k(['apply', '-f', '-'], docs.join('---\n')));
      return uid;
    }

    describe(`kubectl ${label}`, () => {
      before(async () => { ok(await kubectl(bin, orch.kubeconfig, ['create', 'namespace', ns])); });

      test('--cascade=background: the dependents go after the owner', async () => {
        await family('bg', [{ name: 'bg-1' }, { name: 'bg-2' }]);
        assert.match(ok(await k(['delete', 'configmap', 'bg', '--cascade=background'])), /configmap "bg" deleted/);
        await eventually(async () => !(await names()).some(n => n.startsWith('bg')), 'dependents collected');
      });

      test('dependents of other resources go too: a Secret owned by the ConfigMap, a Pod owned by the Secret', async () => {
        const uid = await family('multi', []);
        ok(await k(['create', 'secret', 'generic', 'multi-secret', '--from-literal=a=b']));
        ok(await k(['patch', 'secret', 'multi-secret', '--type=merge', '-p', JSON.stringify({ metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'multi', uid }] } })]));
        const secretUid = ok(await k(['get', 'secret', 'multi-secret', '-o', 'jsonpath={.metadata.uid}']));
        ok(await k(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata:
  name: multi-pod
  ownerReferences:
  - { apiVersion: v1, kind: Secret, name: multi-secret, uid: ${secretUid}, controller: true, blockOwnerDeletion: true }
spec:
  containers: [{ name: c, image: busybox }]
`));
        ok(await k(['delete', 'configmap', 'multi']));
        await eventually(async () => (await k(['get', 'secret', 'multi-secret'])).code !== 0 && (await k(['get', 'pod', 'multi-pod'])).code !== 0, 'secret and pod collected');
      });

      test('--cascade=foreground: the owner waits, being deleted, for its blocking dependent', async () => {
        await family('fg', [{ name: 'fg-block', block: true }, { name: 'fg-loose' }]);
        ok(await k(['delete', 'configmap', 'fg', '--cascade=foreground', '--wait=false']));
        await eventually(async () => ok(await k(['get', 'configmap', 'fg-block', '-o', 'jsonpath={.metadata.deletionTimestamp}'])) !== '', 'the blocking dependent deleted');
        assert.equal(ok(await k(['get', 'configmap', 'fg', '-o', 'jsonpath={.metadata.finalizers} {.metadata.deletionTimestamp}'])).replace(/ \S+$/, ' <set>'), '["foregroundDeletion"] <set>');
        // the dependent lets go: the owner finishes, and kubectl's wait sees it gone
        ok(await k(['patch', 'configmap', 'fg-block', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']));
        ok(await k(['wait', '--for=delete', 'configmap/fg', '--timeout=20s']));
        await eventually(async () => !(await names()).some(n => n.startsWith('fg')), 'every fg object gone');
      });

      test('--cascade=foreground without blocking dependents: kubectl waits for the owner, the dependents follow', async () => {
        await family('fgw', [{ name: 'fgw-1' }, { name: 'fgw-2' }]);
        // kubectl waits (its default) until the owner is gone
        assert.match(ok(await k(['delete', 'configmap', 'fgw', '--cascade=foreground', '--timeout=30s'])), /configmap "fgw" deleted/);
        assert.equal((await k(['get', 'configmap', 'fgw'])).code, 1);
        await eventually(async () => !(await names()).some(n => n.startsWith('fgw')), 'dependents collected');
      });

      test('--cascade=orphan: the dependents stay, without the owner reference', async () => {
        await family('orph', [{ name: 'orph-1' }, { name: 'orph-2' }]);
        ok(await k(['delete', 'configmap', 'orph', '--cascade=orphan']));
        await eventually(async () => !(await names()).includes('orph'), 'owner deleted');
        assert.deepEqual((await names()).filter(n => n.startsWith('orph')), ['orph-1', 'orph-2']);
        assert.equal(ok(await k(['get', 'configmap', 'orph-1', 'orph-2', '-o', 'jsonpath={.items[*].metadata.ownerReferences}'])), '');
      });

      test('a dependent whose owner never existed is collected', async () => {
        ok(await k(['apply', '-f', '-'], `apiVersion: v1
kind: ConfigMap
metadata:
  name: dangling
  ownerReferences:
  - { apiVersion: v1, kind: ConfigMap, name: nobody, uid: 6a1b7c22-0000-4000-8000-000000000000 }
`));
        await eventually(async () => !(await names()).includes('dangling'), 'dangling dependent collected');
      });

      test('an invalid propagationPolicy is 422 with Kubernetes message', async () => {
        ok(await k(['create', 'configmap', 'stays']));
        const r = await kubectl(bin, orch.kubeconfig, ['delete', '--raw', `/api/v1/namespaces/${ns}/configmaps/stays?propagationPolicy=Sideways`]);
        assert.notEqual(r.code, 0);
        // kubectl words a 422 from the Status details (kind DeleteOptions), as it does against Kubernetes
        assert.match(r.stderr, /The DeleteOptions "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"/);
        assert.ok((await names()).includes('stays'));
      });
    });
  }
});
