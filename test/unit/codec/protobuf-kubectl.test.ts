// Request bodies captured from kubectl 1.32 (`kubectl create ...` against a stub server), so
// the decoder is checked against what a real Go client writes, zero fields and all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtobufObject, encodeProtobufObject } from '../../../src/codec/protobuf/envelope.ts';

const captured = {
  configmap: '6b3873000a0f0a0276311209436f6e6669674d617012290a180a016112001a0764656661756c7422002a0032003800420012050a0165120012060a01781201791a002200',
  deployment: '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412c4010a260a0377656212001a0764656661756c7422002a003200380042005a0a0a036170701203776562128b010800120c0a0a0a0361707012037765621a710a1c0a0012001a0022002a003200380042005a0a0a036170701203776562125112330a056e67696e78120a6e67696e783a312e32372a00320a0a001000185022002a0042006a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200',
  service: '6b3873000a0d0a027631120753657276696365126f0a260a036e733112001a0764656661756c7422002a003200380042005a0a0a0361707012036e733112410a1b0a0738302d38303830120354435018502207080010903f1a002800120a0a0361707012036e73311a0022084e6f6465506f72743a00420052005a00600068001a020a001a002200',
  secret: '6b3873000a0c0a027631120653656372657412250a190a02733112001a0764656661756c7422002a0032003800420012060a016b1201761a001a002200',
};
const decode = (hex: string) => decodeProtobufObject(Buffer.from(hex, 'hex'));

test('kubectl create configmap a --from-literal=x=y --from-literal=e=', () => {
  assert.deepEqual(decode(captured.configmap), {
    apiVersion: 'v1', kind: 'ConfigMap',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { e: '', x: 'y' } },
  });
});

test('kubectl create deployment web --image=nginx:1.27 --replicas=0 --port=80', () => {
  assert.deepEqual(decode(captured.deployment).object, {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: {} }] },
      },
      strategy: {},
    },
    status: {},
  });
});

test('kubectl create service nodeport ns1 --tcp=80:8080', () => {
  assert.deepEqual(decode(captured.service).object, {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: 'ns1', namespace: 'default', labels: { app: 'ns1' } },
    spec: { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'ns1' }, type: 'NodePort' },
    status: { loadBalancer: {} },
  });
});

test('kubectl create secret generic s1 --from-literal=k=v: bytes come back as base64', () => {
  assert.deepEqual(decode(captured.secret).object, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: 'default' }, data: { k: 'dg==' } });
});

test('what we write for them decodes back to the same objects', () => {
  for (const hex of Object.values(captured)) {
    const { object } = decode(hex);
    assert.deepEqual(decodeProtobufObject(encodeProtobufObject(object)).object, object);
  }
});
