import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeSwagger, type SwaggerParts } from '../../../src/apiserver/openapi-merge.ts';

test('local paths win; equal definitions are shared; clashing definitions and parameters renamed with their references', () => {
  const into: SwaggerParts = {
    paths: { '/version': { get: { operationId: 'ours' } } },
    definitions: { Shared: { type: 'string' }, Clash: { type: 'object' }, Clash_v2: { type: 'integer' } },
    parameters: { pretty: { in: 'query', name: 'pretty', type: 'string' } },
  };
  mergeSwagger(into, {
    swagger: '2.0',
    paths: {
      '/version': { get: { operationId: 'theirs' } },
      '/apis/x/v1/things': { get: { parameters: [{ $ref: '#/parameters/pretty' }], responses: { 200: { schema: { $ref: '#/definitions/Clash' } } } } },
    },
    definitions: { Shared: { type: 'string' }, Clash: { type: 'array', items: { $ref: '#/definitions/Shared' } }, Own: { $ref: '#/definitions/Clash' } },
    parameters: { pretty: { in: 'query', name: 'pretty', type: 'boolean' } },
  });
  assert.deepEqual((into.paths['/version'] as any).get.operationId, 'ours');
  const things = (into.paths['/apis/x/v1/things'] as any).get;
  // Clash_v2 is taken by something else, so theirs becomes Clash_v3
  assert.equal(things.responses['200'].schema.$ref, '#/definitions/Clash_v3');
  assert.equal(things.parameters[0].$ref, '#/parameters/pretty_v2');
  assert.deepEqual(into.definitions.Clash, { type: 'object' });
  assert.deepEqual(into.definitions.Clash_v2, { type: 'integer' });
  assert.deepEqual(into.definitions.Clash_v3, { type: 'array', items: { $ref: '#/definitions/Shared' } });
  assert.deepEqual(into.definitions.Own, { $ref: '#/definitions/Clash_v3' });
  assert.deepEqual(into.parameters!.pretty_v2, { in: 'query', name: 'pretty', type: 'boolean' });
  assert.deepEqual(Object.keys(into.definitions).sort(), ['Clash', 'Clash_v2', 'Clash_v3', 'Own', 'Shared']);
});
