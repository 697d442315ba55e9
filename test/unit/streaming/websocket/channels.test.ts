import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chooseProtocol, decodeFrame, decodeResize, encodeClose, encodeFrame, encodeResize, FrameError, offeredProtocols, parseChannelProtocol,
  commandProtocolNames,
} from '../../../../src/streaming/websocket/channels.ts';

test('protocol names give their version and framing', () => {
  assert.deepEqual(parseChannelProtocol('v5.channel.k8s.io'), { name: 'v5.channel.k8s.io', version: 5, base64: false });
  assert.deepEqual(parseChannelProtocol('v4.base64.channel.k8s.io'), { name: 'v4.base64.channel.k8s.io', version: 4, base64: true });
  assert.deepEqual(parseChannelProtocol('channel.k8s.io'), { name: 'channel.k8s.io', version: 1, base64: false });
  assert.deepEqual(parseChannelProtocol('base64.channel.k8s.io'), { name: 'base64.channel.k8s.io', version: 1, base64: true });
  assert.deepEqual(parseChannelProtocol(''), { name: '', version: 1, base64: false });
  assert.equal(parseChannelProtocol('v6.channel.k8s.io'), undefined);
  assert.equal(parseChannelProtocol('SPDY/3.1+portforward.k8s.io'), undefined);
});

test("the first protocol the client offered that is supported wins; none offered is the binary framing", () => {
  assert.equal(chooseProtocol(['v4.channel.k8s.io', 'v5.channel.k8s.io'], commandProtocolNames), 'v4.channel.k8s.io');
  assert.equal(chooseProtocol(['x', 'base64.channel.k8s.io'], commandProtocolNames), 'base64.channel.k8s.io');
  assert.equal(chooseProtocol([], commandProtocolNames), '');
  assert.equal(chooseProtocol(['x'], commandProtocolNames), undefined);
  assert.deepEqual(offeredProtocols(['v5.channel.k8s.io, v4.channel.k8s.io', 'channel.k8s.io']), ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'channel.k8s.io']);
});

test('binary frames carry the channel in their first byte', () => {
  const p = parseChannelProtocol('v4.channel.k8s.io')!;
  const f = encodeFrame(p, 1, Buffer.from('hi'));
  assert.deepEqual([...(f as Buffer)], [1, 104, 105]);
  assert.deepEqual(decodeFrame(p, f), { type: 'data', channel: 1, data: Buffer.from('hi') });
  assert.deepEqual(decodeFrame(p, Buffer.alloc(0)), { type: 'empty' });
  assert.deepEqual(decodeFrame(p, Buffer.from([2])), { type: 'data', channel: 2, data: Buffer.alloc(0) });
});

test('base64 frames carry the channel as a digit and the data in base64', () => {
  const p = parseChannelProtocol('base64.channel.k8s.io')!;
  assert.equal(encodeFrame(p, 0, Buffer.from('foo\n')), '0Zm9vCg==');
  assert.deepEqual(decodeFrame(p, '1Cg=='), { type: 'data', channel: 1, data: Buffer.from('\n') });
  assert.throws(() => decodeFrame(p, '1*!'), FrameError);
});

test("v5's close signal names a channel; before v5, 255 is just a channel number", () => {
  const v5 = parseChannelProtocol('v5.channel.k8s.io')!;
  const v4 = parseChannelProtocol('v4.channel.k8s.io')!;
  assert.deepEqual(decodeFrame(v5, encodeClose(0)), { type: 'close', channel: 0 });
  assert.deepEqual(decodeFrame(v4, encodeClose(0)), { type: 'data', channel: 255, data: Buffer.from([0]) });
  assert.throws(() => decodeFrame(v5, Buffer.from([255])), FrameError);
});

test('terminal sizes are the JSON the kubelet reads', () => {
  assert.equal(encodeResize({ width: 80, height: 24 }).toString(), '{"Width":80,"Height":24}');
  assert.deepEqual(decodeResize(Buffer.from('{"Width":120,"Height":40}')), { width: 120, height: 40 });
  assert.equal(decodeResize(Buffer.from('nonsense')), undefined);
});
