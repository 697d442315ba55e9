import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCatalog } from '../../../../src/schema/catalog.ts';
import { localAPIServices } from '../../../../src/apiserver/aggregator/local-apiservices.ts';
import { validateAPIService } from '../../../../src/registry/apiregistration/apiservice-validation.ts';
import { apiServicePrinter } from '../../../../src/schema/printers/apiregistration.ts';

test('one local APIService per served group-version, named <version>.<group>', () => {
  const all = localAPIServices(createCatalog({})) as Array<{ metadata: { name: string; labels: Record<string, string> }; spec: Record<string, unknown> }>;
  const core = all.find(a => a.metadata.name === 'v1.')!;
  assert.deepEqual(core.spec, { version: 'v1', groupPriorityMinimum: 18100, versionPriority: 15 });
  assert.equal(core.metadata.labels['kube-aggregator.kubernetes.io/automanaged'], 'onstart');
  const apps = all.find(a => a.metadata.name === 'v1.apps')!;
  assert.deepEqual(apps.spec, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
  for (const a of all) assert.deepEqual(validateAPIService(a as never), [], a.metadata.name);
});

test('an APIService whose name is not <version>.<group> is refused', () => {
  const errs = validateAPIService({ metadata: { name: 'wardle' }, spec: { group: 'wardle.example.com', version: 'v1' } } as never);
  assert.deepEqual(errs, [{ type: 'FieldValueInvalid', field: 'metadata.name', value: 'wardle', detail: 'must be `spec.version+"."+spec.group`' }]);
});

test('kubectl get apiservices: Service (or Local) and Available with the reason when not True', () => {
  const now = new Date('2026-01-01T00:10:00Z');
  const meta = { name: 'v1alpha1.wardle.example.com', creationTimestamp: '2026-01-01T00:00:00Z' };
  assert.deepEqual(apiServicePrinter.columns.map(c => c.name), ['Name', 'Service', 'Available', 'Age']);
  const down = { metadata: meta, spec: { service: { namespace: 'wardle', name: 'api' } }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] } };
  assert.deepEqual(apiServicePrinter.cells(down as never, now), ['v1alpha1.wardle.example.com', 'wardle/api', 'False (MissingEndpoints)', '10m']);
  assert.deepEqual(apiServicePrinter.cells({ metadata: meta, spec: {} } as never, now).slice(1, 3), ['Local', 'Unknown']);
});
