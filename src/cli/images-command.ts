// `orch images import FILE…`: loads OCI or Docker image archives into the containerd a running
// `orch up` uses, so images work on machines that reach no registry (the job `kind load` and
// `k3s ctr images import` do).

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError, type Command } from './command.ts';
import { defaultDataDir, readUpState } from './up-paths.ts';

export const imagesCommand: Command = {
  name: 'images',
  summary: 'Load image archives (OCI or Docker, e.g. from `docker save`) into the runtime of a running `orch up`.',
  usage: 'orch images import [--data-dir DIR] FILE...',
  flags: {
    'data-dir': { type: 'string', default: defaultDataDir(), description: 'the data dir of the `orch up` whose runtime gets the images' },
  },
  async run(values, positionals) {
    const [verb, ...files] = positionals;
    if (verb !== 'import') throw new UsageError(verb ? `unknown images command "${verb}" (known: import)` : 'images: say what to do (import FILE...)');
    if (!files.length) throw new UsageError('images import: name at least one archive');
    const dataDir = resolve(String(values['data-dir']));
    const state = await readUpState(dataDir);
    if (!state) {
      process.stderr.write(`Error: no orch up is running on ${dataDir} (start it first, or pass its --data-dir)\n`);
      return 1;
    }
    if (state.runtime === 'sim') {
      process.stdout.write('the simulated runtime runs any image it is asked for: nothing to import\n');
      return 0;
    }
    // a containerd socket serves its own API beside the CRI: ctr reaches either kind of runtime
    const address = state.address ?? state.endpoint.replace(/^unix:\/\//, '');
    const { ctr } = await import('../agent/containerd/embedded.ts');
    for (const file of files) {
      const archive = await readFile(resolve(file)).catch((err: Error) => { throw new UsageError(`cannot read ${file}: ${err.message}`); });
      let out;
      try {
        out = await ctr(address, ['images', 'import', '--all-platforms', '-'], archive);
      } catch (err) {
        process.stderr.write(`Error: importing ${file}: ${(err as Error).message}\n`);
        return 1;
      }
      for (const line of out.split('\n').map(l => l.trim()).filter(Boolean)) process.stdout.write(`${line}\n`);
    }
    return 0;
  },
};
