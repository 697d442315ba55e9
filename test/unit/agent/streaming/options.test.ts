import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandOptions, forwardedPorts } from '../../../../src/agent/streaming/options.ts';

test("the agent reads the kubelet's query: streams as 1, stderr dropped with a TTY, at least one stream", () => {
  assert.deepEqual(commandOptions(new URLSearchParams('input=1&output=1&error=1&tty=1')), { stdin: true, stdout: true, stderr: false, tty: true });
  assert.deepEqual(commandOptions(new URLSearchParams('output=1&error=1')), { stdin: false, stdout: true, stderr: true, tty: false });
  assert.throws(() => commandOptions(new URLSearchParams('tty=1&error=1')), /^Error: you must specify at least 1 of stdin, stdout, stderr$/);
});

test('ports: repeated or comma-separated, refused in the kubelet\'s words', () => {
  assert.deepEqual(forwardedPorts(new URLSearchParams('port=80&port=443,8080')), [80, 443, 8080]);
  assert.throws(() => forwardedPorts(new URLSearchParams('')), /query parameter "port" is required/);
  assert.throws(() => forwardedPorts(new URLSearchParams('port=')), /query parameter "port" cannot be empty/);
  assert.throws(() => forwardedPorts(new URLSearchParams('port=http')), /unable to parse "http" as a port: strconv.ParseUint: parsing "http": invalid syntax/);
  assert.throws(() => forwardedPorts(new URLSearchParams('port=0')), /port "0" must be > 0/);
});
