// What a container runs: its command and args read as the sim's shell subset, or what its
// annotations say instead. No command at all (the image's entrypoint, unknown here) runs until
// stopped.

import type { CommandList } from './shell/ast.ts';
import { argvCommand } from './shell/parse.ts';
import type { Overrides } from './overrides.ts';

export function containerProgram(command: string[], args: string[], overrides: Overrides): CommandList {
  const argv = [...command, ...args];
  let program: CommandList = argv.length > 0 ? argvCommand(argv) : [{ negate: false, first: { kind: 'forever' }, rest: [] }];
  if (overrides.exitCode !== undefined || overrides.runSeconds !== undefined) {
    program = [
      ...(overrides.runSeconds !== undefined ? argvCommand(['sleep', String(overrides.runSeconds)]) : []),
      ...argvCommand(['exit', String(overrides.exitCode ?? 0)]),
    ];
  }
  if (overrides.ignoreSigterm) program = [...argvCommand(['trap', '', 'TERM']), ...program];
  return program;
}
