// The logging flags as component-base declares them: -v/--v with pflag's messages for what
// strconv.ParseUint refuses (and `-v=4` read as pflag reads it), --logging-format with
// component-base's validation message, and the logger they make.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loggerFromFlags, loggingFlags, parseLogFormat, parseVerbosity } from '../../../src/cli/logging-flags.ts';
import { runCommand, UsageError, type Command } from '../../../src/cli/command.ts';

test('--v: an unsigned 31-bit number, or pflag\'s message', () => {
  assert.equal(parseVerbosity('0'), 0);
  assert.equal(parseVerbosity('4'), 4);
  assert.equal(parseVerbosity('2147483647'), 2147483647);
  const refused = (v: string, why: string) => assert.throws(() => parseVerbosity(v), (e: Error) => e instanceof UsageError && e.message === `invalid argument "${v}" for "-v, --v" flag: strconv.ParseUint: parsing "${v}": ${why}`);
  refused('-1', 'invalid syntax');
  refused('abc', 'invalid syntax');
  refused('', 'invalid syntax');
  refused('1.5', 'invalid syntax');
  refused('2147483648', 'value out of range');
});

test('--logging-format: text or json, or component-base\'s validation message', () => {
  assert.equal(parseLogFormat('text'), 'text');
  assert.equal(parseLogFormat('json'), 'json');
  assert.throws(() => parseLogFormat('xml'), (e: Error) => e instanceof UsageError && e.message === 'format: Invalid value: "xml": Unsupported log format');
  assert.throws(() => parseLogFormat('JSON'), /format: Invalid value: "JSON": Unsupported log format/);
  assert.equal(loggingFlags['logging-format']!.description, 'Sets the log format. Permitted formats: "json", "text".');
  assert.equal(loggingFlags['logging-format']!.default, 'text');
});

test('-v N, -v=N, -vN and --v=N all set the verbosity; a bad value exits 2 with the message', async () => {
  let seen: unknown;
  const cmd: Command = { name: 'x', summary: 'x', usage: 'orch x', flags: { ...loggingFlags }, run: async values => { loggerFromFlags(values); seen = [values.v, values['logging-format']]; } };
  for (const args of [['-v', '4'], ['-v=4'], ['-v4'], ['--v=4'], ['--v', '4']]) {
    seen = undefined;
    assert.equal(await runCommand(cmd, args), 0, args.join(' '));
    assert.deepEqual(seen, ['4', 'text'], args.join(' '));
  }
  await runCommand(cmd, ['--logging-format=json']);
  assert.deepEqual(seen, ['0', 'json']);
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((s: string) => { written.push(s); return true; }) as typeof write;
  try {
    assert.equal(await runCommand(cmd, ['-v=x']), 2);
    assert.equal(await runCommand(cmd, ['--logging-format', 'yaml']), 2);
  } finally {
    process.stderr.write = write;
  }
  assert.deepEqual(written, ['Error: invalid argument "x" for "-v, --v" flag: strconv.ParseUint: parsing "x": invalid syntax\n', 'Error: format: Invalid value: "yaml": Unsupported log format\n']);
});
