import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventJson, eventLegacy, type AuditEvent } from '../../../../src/apiserver/audit/event.ts';

const t0 = Date.parse('2026-11-27T17:00:00.123Z');
const full: AuditEvent = {
  level: 'RequestResponse', auditID: 'id-1', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/a/configmaps?fieldManager=kubectl-create',
  verb: 'create', user: { name: 'admin', uid: 'u1', groups: ['system:masters', 'system:authenticated'], extra: { z: ['1'], a: ['2'] } },
  impersonatedUser: { name: 'bob', groups: ['g'] }, sourceIPs: ['127.0.0.1'], userAgent: 'kubectl/v1.33.0',
  objectRef: { resource: 'configmaps', namespace: 'a', name: 'c', apiGroup: '', apiVersion: 'v1' },
  responseStatus: { code: 201 }, requestObject: { kind: 'ConfigMap' }, responseObject: { kind: 'ConfigMap', data: { x: '<&>' } },
  requestReceived: t0, stageTime: t0 + 5, annotations: { 'authorization.k8s.io/reason': '', 'authorization.k8s.io/decision': 'allow' },
};

test('an event is one JSON line with Kubernetes\' fields in its order, empty ones left out', () => {
  const line = eventJson(full);
  assert.equal(line.includes('\n'), false);
  const obj = JSON.parse(line);
  assert.deepEqual(Object.keys(obj), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'impersonatedUser', 'sourceIPs', 'userAgent', 'objectRef', 'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
  assert.equal(obj.kind, 'Event');
  assert.equal(obj.apiVersion, 'audit.k8s.io/v1');
  assert.deepEqual(Object.keys(obj.user), ['username', 'uid', 'groups', 'extra']);
  assert.deepEqual(Object.keys(obj.user.extra), ['a', 'z']);
  // the core group is left out, as Go's omitempty leaves an empty apiGroup out
  assert.deepEqual(obj.objectRef, { resource: 'configmaps', namespace: 'a', name: 'c', apiVersion: 'v1' });
  assert.deepEqual(obj.responseStatus, { metadata: {}, code: 201 });
  assert.equal(obj.requestReceivedTimestamp, '2026-11-27T17:00:00.123000Z');
  assert.equal(obj.stageTimestamp, '2026-11-27T17:00:00.128000Z');
  assert.deepEqual(Object.keys(obj.annotations), ['authorization.k8s.io/decision', 'authorization.k8s.io/reason']);
  // Go's escapes of HTML characters
  assert.match(line, /"x":"\\u003c\\u0026\\u003e"/);
});

test('a Metadata event of a failure carries the Status fields and no objects', () => {
  const obj = JSON.parse(eventJson({
    level: 'Metadata', auditID: 'id-2', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/a/secrets/s', verb: 'get',
    user: { name: 'admin', groups: [] }, objectRef: { resource: 'secrets', namespace: 'a', name: 's', apiVersion: 'v1' },
    responseStatus: { status: 'Failure', message: 'secrets "s" not found', reason: 'NotFound', details: { name: 's', kind: 'secrets' }, code: 404 },
    requestReceived: t0, stageTime: t0,
  }));
  assert.deepEqual(Object.keys(obj), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'objectRef', 'responseStatus', 'requestReceivedTimestamp', 'stageTimestamp']);
  assert.deepEqual(obj.user, { username: 'admin' });
  assert.deepEqual(Object.keys(obj.responseStatus), ['metadata', 'status', 'message', 'reason', 'details', 'code']);
});

test('a request without a user (its credentials failed) has an empty user object', () => {
  const obj = JSON.parse(eventJson({ level: 'Metadata', auditID: 'id-3', stage: 'ResponseComplete', requestURI: '/api', verb: 'get', user: { name: '', groups: [] }, responseStatus: { code: 401 }, requestReceived: t0, stageTime: t0 }));
  assert.deepEqual(obj.user, {});
});

test('the legacy format is one line of quoted pairs', () => {
  assert.equal(eventLegacy(full), '2026-11-27T17:00:00.123Z AUDIT: id="id-1" stage="ResponseComplete" ip="127.0.0.1" method="create" user="admin" groups="\\"system:masters\\",\\"system:authenticated\\"" as="bob" asgroups="\\"g\\"" user-agent="kubectl/v1.33.0" namespace="a" uri="/api/v1/namespaces/a/configmaps?fieldManager=kubectl-create" response="201"');
});
