// How a command's outcome travels on the error channel, whatever the protocol: nothing (or a
// Success Status) when it exited 0; otherwise a Failure Status whose `ExitCode` cause holds the
// code, which kubectl turns into `command terminated with exit code N` and its own exit status.

import type { Status } from '../api/status.ts';

export const exitCodeCause = 'ExitCode';

/** the Status the kubelet reports for a command that exited with `code` (undefined for 0) */
export function exitStatus(code: number, command: readonly string[]): Status | undefined {
  if (code === 0) return undefined;
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500, reason: 'NonZeroExitCode',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    details: { causes: [{ reason: exitCodeCause, message: String(code) }] },
  };
}

/** a failure that is not an exit code (the command could not start, the container is gone) */
export function failureStatus(message: string, code = 500): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason: 'InternalError', message };
}

/** a Status read off the error channel: none for Success, else filled out as a Failure Status */
export function channelStatus(s: Partial<Status>): Status | undefined {
  return s.status === 'Success' ? undefined : { ...s, kind: 'Status', apiVersion: 'v1', metadata: {}, code: s.code ?? 500 } as Status;
}

/** the exit code a Status carries: 0 for none (success), undefined when it failed otherwise */
export function exitCodeOf(status: Status | undefined): number | undefined {
  if (!status || status.status === 'Success') return 0;
  const cause = status.details?.causes?.find(c => c.reason === exitCodeCause);
  const n = cause?.message !== undefined ? Number(cause.message) : NaN;
  return Number.isInteger(n) ? n : undefined;
}

/** the Status as the error channel carries it from v4 on: JSON, Success when there was no failure */
export function statusJson(status: Status | undefined): string {
  return JSON.stringify(status ?? { metadata: {}, status: 'Success' });
}
