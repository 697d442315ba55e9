// Loading the configuration: the --config file, then each drop-in of --config-dir (files
// ending in .conf, in lexical order) merged over it, then defaults, then validation. Any problem
// stops start-up with an error naming the file and the field.

import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { yamlLibrary } from '../../api/yaml-library.ts';
import { decodeProblems } from './decode.ts';
import { withDefaults } from './defaults.ts';
import { mergeConfig } from './merge.ts';
import type { AgentConfig } from './types.ts';
import { validateConfig } from './validate.ts';

export class AgentConfigError extends Error {}

async function readDocument(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try { text = await readFile(path, 'utf8'); } catch (err) {
    throw new AgentConfigError(`failed to load kubelet config file "${path}": ${(err as Error).message}`);
  }
  let doc: unknown;
  try { doc = yamlLibrary().parse(text, { uniqueKeys: true }); } catch (err) {
    throw new AgentConfigError(`failed to load kubelet config file "${path}": ${(err as Error).message.split('\n')[0]}`);
  }
  const problems = decodeProblems(doc ?? {});
  if (problems.length) throw new AgentConfigError(`failed to load kubelet config file "${path}": strict decoding error: ${problems.join(', ')}`);
  return doc as Record<string, unknown>;
}

/** the drop-in files of a directory, in the order they apply */
export async function dropInFiles(dir: string): Promise<string[]> {
  let names: string[];
  try { names = await readdir(dir); } catch (err) {
    throw new AgentConfigError(`failed to read the kubelet config directory "${dir}": ${(err as Error).message}`);
  }
  return names.filter(n => n.endsWith('.conf')).sort().map(n => join(dir, n));
}

export async function loadAgentConfig(opts: { configFile?: string; configDir?: string }): Promise<AgentConfig> {
  let merged: Record<string, unknown> = {};
  if (opts.configFile) merged = await readDocument(opts.configFile);
  if (opts.configDir) {
    for (const file of await dropInFiles(opts.configDir)) merged = mergeConfig(merged, await readDocument(file));
  }
  const config = withDefaults(merged);
  const problems = validateConfig(config);
  if (problems.length) throw new AgentConfigError(`invalid configuration: ${problems.join('; ')}`);
  return config;
}
