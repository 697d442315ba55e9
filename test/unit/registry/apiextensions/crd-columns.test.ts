// A CRD's printer columns and selectable fields refused as kube-apiserver refuses them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCrdColumnsAndFields } from '../../../../src/registry/apiextensions/crd-columns.ts';
import { fieldErrorMessage } from '../../../../src/api/status.ts';
import type { Crd, CrdVersion } from '../../../../src/registry/apiextensions/crd-types.ts';

const schema = {
  type: 'object',
  properties: {
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        color: { type: 'string', enum: ['red', 'blue'] }, size: { type: 'integer' }, on: { type: 'boolean' }, ratio: { type: 'number' },
        labels: { type: 'object', additionalProperties: { type: 'string' } }, list: { type: 'array', items: { type: 'string' } },
        'x-y': { type: 'string' },
      },
    },
  },
};

function crd(version: Partial<CrdVersion>): Crd {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...version }] },
  };
}

const messages = (c: Crd, old?: Crd) => validateCrdColumnsAndFields(c, old).map(fieldErrorMessage);

test('valid columns and selectable fields pass', () => {
  assert.deepEqual(messages(crd({
    additionalPrinterColumns: [{ name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' }, { name: 'Size', type: 'integer', format: 'int32', jsonPath: '.spec.size', priority: 1 }],
    selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.on' }, { jsonPath: '.spec.labels.team' }, { jsonPath: '.spec.x-y' }],
  })), []);
});

test('printer columns: name, type, format and JSONPath as Kubernetes words them', () => {
  assert.deepEqual(messages(crd({
    additionalPrinterColumns: [
      { name: '', type: '', jsonPath: '' },
      { name: 'A', type: 'float', format: 'hex', jsonPath: 'spec.size' },
    ] as never,
  })), [
    'spec.versions[0].additionalPrinterColumns[0].name: Required value',
    'spec.versions[0].additionalPrinterColumns[0].type: Required value: must be one of boolean,date,integer,number,string',
    'spec.versions[0].additionalPrinterColumns[0].JSONPath: Required value',
    'spec.versions[0].additionalPrinterColumns[1].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
    'spec.versions[0].additionalPrinterColumns[1].format: Invalid value: "hex": must be one of byte,date,date-time,double,float,int32,int64,password',
    'spec.versions[0].additionalPrinterColumns[1].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .',
  ]);
});

test('selectable fields: paths, types, metadata, duplicates', () => {
  const at = 'spec.versions[0].selectableFields';
  assert.deepEqual(messages(crd({
    selectableFields: [
      { jsonPath: '.spec.nope' }, { jsonPath: ".spec['color']" }, { jsonPath: '.spec.ratio' }, { jsonPath: '.spec.list' },
      { jsonPath: '.metadata.name' }, { jsonPath: '.spec.color' }, { jsonPath: '.spec.color' }, { jsonPath: '' },
    ],
  })), [
    `${at}[0].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field`,
    `${at}[1].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed`,
    `${at}[2].jsonPath: Invalid value: ".spec.ratio": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
    `${at}[3].jsonPath: Invalid value: ".spec.list": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
    `${at}[4].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field`,
    `${at}[6].jsonPath: Duplicate value: ".spec.color"`,
    `${at}[7].jsonPath: Required value`,
  ]);
  assert.deepEqual(messages(crd({ schema: undefined, selectableFields: [{ jsonPath: '.spec.color' }] })),
    [`${at}: Invalid value: "": may only be set when \`version.schema.openAPIV3Schema\` is not included`]);
});

test('at most 8 selectable fields, unless an update keeps more it already had', () => {
  const props = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`f${i}`, { type: 'string' }]));
  const many = crd({ schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } }, selectableFields: Object.keys(props).map(k => ({ jsonPath: `.spec.${k}` })) });
  assert.deepEqual(messages(many), ['spec.versions[0].selectableFields: Too many: 9: must have at most 8 items']);
  assert.deepEqual(messages(many, many), []);
});
