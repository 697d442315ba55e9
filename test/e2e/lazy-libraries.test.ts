// The libraries an idle orch does not need stay unloaded until something uses them: every
// command module of the CLI is imported (as `orch version` does) and nothing of CEL, CBOR, YAML,
// WebSocket, X.509 or JOSE, nor Node's bundled undici, may be loaded by that alone. A static import
// of one of them anywhere in the commands' graph brings back megabytes of idle memory.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const lazy = ['@bufbuild/cel', 'cbor-x', 'yaml', 'ws', '@peculiar/x509', 'jose'];

// records every specifier the loader resolves and, at exit, Node's own modules loaded
const hook = `
import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ resolve(spec, ctx, next) { seen.add(spec); return next(spec, ctx); } });
process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify({ resolved: [...seen], builtins: process.moduleLoadList }) + '\\n'));
`;

function loadedBy(args: string[]): { resolved: string[]; builtins: string[]; stdout: string } {
  const r = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '--import', `data:text/javascript,${encodeURIComponent(hook)}`, ...args], { encoding: 'utf8' });
  const line = r.stderr.split('\n').find(l => l.startsWith('LOADED '));
  assert.ok(line, `no report from the child: ${r.stderr}`);
  return { ...JSON.parse(line.slice('LOADED '.length)), stdout: r.stdout };
}

test('the CLI loads without CEL, CBOR, YAML, ws, X.509, JOSE or undici', () => {
  const { resolved, builtins, stdout } = loadedBy([join(root, 'src/cli/main.ts'), 'version']);
  assert.match(stdout, /^orch /);
  assert.ok(resolved.some(s => s.endsWith('up-command.ts')), 'the up command was imported');
  assert.deepEqual(lazy.filter(l => resolved.includes(l)), []);
  assert.deepEqual(builtins.filter(b => /undici/.test(b)), []);
});

test('the check sees a library that is imported', () => {
  const { resolved, builtins } = loadedBy(['--input-type=module', '-e', "await import('yaml'); await import('node:http')"]);
  assert.ok(resolved.includes('yaml'));
  assert.ok(builtins.some(b => /undici/.test(b)), 'an ES import of node:http loads undici');
});
