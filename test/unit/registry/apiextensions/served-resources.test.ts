import { test } from 'node:test';
import assert from 'node:assert/strict';
import { servedResources } from '../../../../src/registry/apiextensions/served-resources.ts';
import { extensibleCatalog } from '../../../../src/schema/extensible-catalog.ts';
import { createCatalog } from '../../../../src/schema/catalog.ts';
import type { Crd } from '../../../../src/registry/apiextensions/crd-types.ts';

const schema = { type: 'object' };
const established = { type: 'Established', status: 'True' as const };

function crd(conditions = [established]): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget', shortNames: ['wd'] },
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } },
        {
          name: 'v1beta1', served: true, storage: false, deprecated: true,
          additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }], selectableFields: [{ jsonPath: '.spec.color' }],
        },
        { name: 'v1alpha1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: {} } } },
      ],
    },
    status: { acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] }, conditions },
  };
}

test('an established CRD serves each served version under its accepted names', () => {
  const [v1, v1beta1, ...rest] = servedResources(crd());
  assert.equal(rest.length, 0);
  assert.deepEqual([v1!.version, v1!.resource, v1!.singular, v1!.kind, v1!.listKind, v1!.namespaced, v1!.storageVersion], ['v1', 'widgets', 'widget', 'Widget', 'WidgetList', true, 'v1']);
  assert.deepEqual(v1!.shortNames, ['wd']);
  assert.deepEqual(v1!.categories, ['all']);
  assert.deepEqual(v1!.subresources.map(s => `${s.name}:${s.group}/${s.version}.${s.kind}`), ['status:example.com/v1.Widget', 'scale:autoscaling/v1.Scale']);
  assert.deepEqual(v1!.custom, { crd: 'widgets.example.com', terminating: false, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' }, schema, versionSchemas: { v1: schema, v1alpha1: { type: 'object', properties: {} } } });
  assert.equal(v1beta1!.custom!.deprecationWarning, 'example.com/v1beta1 Widget is deprecated');
  // each served version its own columns and selectable fields (labels without the JSONPath's dot)
  assert.deepEqual([v1beta1!.custom!.printerColumns, v1beta1!.custom!.selectableFields], [[{ name: 'Color', type: 'string', jsonPath: '.spec.color' }], ['spec.color']]);
  assert.equal(v1beta1!.custom!.versionSchemas, v1!.custom!.versionSchemas);
  assert.deepEqual(v1beta1!.subresources, []);
  assert.equal(v1beta1!.storageVersion, 'v1');
});

test('nothing is served before Established; a terminating CRD is marked so', () => {
  assert.deepEqual(servedResources(crd([])), []);
  assert.deepEqual(servedResources(crd([{ type: 'Established', status: 'False' } as never])), []);
  const t = servedResources(crd([established, { type: 'Terminating', status: 'True' } as never]));
  assert.equal(t[0]!.custom!.terminating, true);
});

test('the extensible catalog serves custom resources beside the built-ins and lets them go', () => {
  const catalog = extensibleCatalog(createCatalog());
  const before = catalog.groups().length;
  catalog.setCustomResources(servedResources(crd()));
  assert.equal(catalog.lookup('example.com', 'v1', 'widgets')?.kind, 'Widget');
  assert.equal(catalog.byKind('example.com', 'v1beta1', 'Widget')?.version, 'v1beta1');
  assert.deepEqual(catalog.groups().find(g => g.name === 'example.com'), { name: 'example.com', versions: ['v1', 'v1beta1'], preferredVersion: 'v1' });
  assert.equal(catalog.groups().at(-1)!.name, 'example.com');
  assert.ok(catalog.lookup('', 'v1', 'pods'));
  catalog.setCustomResources([]);
  assert.equal(catalog.lookup('example.com', 'v1', 'widgets'), undefined);
  assert.equal(catalog.groups().length, before);
});

test('a custom resource never shadows a built-in one', () => {
  const catalog = extensibleCatalog(createCatalog());
  const fake = { ...servedResources(crd())[0]!, group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' };
  catalog.setCustomResources([fake]);
  assert.equal(catalog.lookup('apps', 'v1', 'deployments')?.custom, undefined);
});
