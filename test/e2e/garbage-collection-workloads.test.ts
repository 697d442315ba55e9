// The acceptance for the garbage collector on workloads, through real kubectl (newest
// and oldest present) against `orch server`: `delete deployment` takes its ReplicaSets and pods
// with it, `delete --cascade=orphan` keeps them. No nodes: the pods stay Pending, which is all
// the collector needs. Needs the Deployment and ReplicaSet controllers, built beside this one.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { controllerNames } from '../../src/controllers/manager.ts';
import { kubectl, kubectls, type Run } from './support/kubectl.ts';
import { startOrch, type OrchProcess } from './support/orch-process.ts';
import { requires } from '../support/requires.ts';

function ok(r: Run): string {
  assert.equal(r.code, 0, `kubectl failed: ${r.stderr}`);
  return r.stdout;
}

const versions = kubectls();
const workloads = controllerNames().includes('deployment') && controllerNames().includes('replicaset');
const needs = requires((versions.length === 0 && 'no kubectl binary found') || (!workloads && 'no Deployment and ReplicaSet controllers in this tree'));

async function eventually(fn: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 250));
  }
}

describe('kubectl delete deployment and the garbage collector', needs, () => {
  let orch: OrchProcess;
  before(async () => { orch = await startOrch(); });
  after(async () => { await orch.stop(); await orch.cleanup(); });

  for (const { label, path: bin } of versions) {
    const ns = `gcw-${label.replace('.', '-')}`;
    const k = (args: string[]) => kubectl(bin, orch.kubeconfig, ['-n', ns, ...args]);
    const names = async (what: string, app: string) => ok(await k(['get', what, '-l', `app=${app}`, '-o', 'jsonpath={.items[*].metadata.name}'])).split(/\s+/).filter(Boolean);

    async function deployment(app: string): Promise<void> {
      ok(await k(['create', 'deployment', app, '--image=busybox', '--replicas=2']));
      await eventually(async () => (await names('rs', app)).length === 1 && (await names('pods', app)).length === 2, `${app}'s ReplicaSet and 2 pods`);
    }

    describe(`kubectl ${label}`, () => {
      before(async () => { ok(await kubectl(bin, orch.kubeconfig, ['create', 'namespace', ns])); });

      test('delete deployment: its ReplicaSet and pods go with it', async () => {
        await deployment('web');
        assert.match(ok(await k(['delete', 'deployment', 'web'])), /deployment.apps "web" deleted/);
        await eventually(async () => (await names('rs', 'web')).length === 0 && (await names('pods', 'web')).length === 0, 'ReplicaSet and pods collected');
      });

      test('delete deployment --cascade=orphan: the ReplicaSet and pods stay, the ReplicaSet without its owner', async () => {
        await deployment('kept');
        const rs = (await names('rs', 'kept'))[0]!;
        ok(await k(['delete', 'deployment', 'kept', '--cascade=orphan']));
        await eventually(async () => (await k(['get', 'deployment', 'kept'])).code !== 0, 'deployment gone');
        assert.equal(ok(await k(['get', 'rs', rs, '-o', 'jsonpath={.metadata.ownerReferences}'])), '');
        assert.equal((await names('pods', 'kept')).length, 2);
        // the pods still belong to the ReplicaSet
        assert.equal(ok(await k(['get', 'pods', '-l', 'app=kept', '-o', 'jsonpath={.items[*].metadata.ownerReferences[0].name}'])), `${rs} ${rs}`);
      });
    });
  }
});
