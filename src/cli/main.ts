// The `orch` command: subcommand dispatch only.

import { releaseCompileCache } from './compile-cache.ts';
import { helpText, runCommand, type Command } from './command.ts';
import { serverCommand } from './server-command.ts';
import { controllerManagerCommand } from './controller-manager-command.ts';
import { agentCommand } from './agent-command.ts';
import { schedulerCommand } from './scheduler-command.ts';
import { dnsCommand } from './dns-command.ts';
import { simNodesCommand } from './sim-nodes-command.ts';
import { runtimeSimCommand } from './runtime-sim-command.ts';
import { upCommand } from './up-command.ts';
import { imagesCommand } from './images-command.ts';
import { backupCommand } from './backup-command.ts';
import { restoreCommand } from './restore-command.ts';
import { tokenCommand } from './token-command.ts';
import { proxyCommand } from './proxy-command.ts';
import { networkPolicyCommand } from './network-policy-command.ts';
import { checkCommand } from './check-command.ts';
import { versionInfo } from '../apiserver/version.ts';

const versionCommand: Command = {
  name: 'version',
  summary: 'Print the orch version and the Kubernetes version it serves.',
  usage: 'orch version',
  flags: {},
  async run() {
    process.stdout.write(`orch ${versionInfo().gitVersion} (node ${process.versions.node})\n`);
  },
};

const commands: Command[] = [upCommand, imagesCommand, serverCommand, controllerManagerCommand, schedulerCommand, dnsCommand, agentCommand, runtimeSimCommand, simNodesCommand, proxyCommand, networkPolicyCommand, tokenCommand, backupCommand, restoreCommand, checkCommand, versionCommand];

function usage(): string {
  const lines = ['orch: a small Kubernetes-compatible control plane and node agent.', '', 'Usage:\n  orch <command> [flags]', '', 'Commands:'];
  for (const c of commands) lines.push(`  ${c.name.padEnd(20)} ${c.summary}`);
  lines.push('', 'Run "orch <command> --help" for a command\'s flags.');
  return lines.join('\n') + '\n';
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const target = name === 'help' ? commands.find(c => c.name === rest[0]) : undefined;
    process.stdout.write(target ? helpText(target) : usage());
    return 0;
  }
  const cmd = commands.find(c => c.name === name);
  if (!cmd) {
    process.stderr.write(`Error: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  releaseCompileCache();
  return runCommand(cmd, rest);
}

const code = await main(process.argv.slice(2));
// a command that has returned is done, as a Go binary is when main returns: what it started has
// been stopped, and timers or idle connections left behind (a controller's requeue a minute
// away) must not hold the process open. Output is flushed first.
process.exitCode = code;
releaseCompileCache();
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
