// The logging flags of every long-running command, as component-base gives Kubernetes
// components: `-v, --v` (klog's verbosity, an unsigned 31-bit number) and `--logging-format`
// (text, the default, or json), with Kubernetes' messages for bad values.

import { createLogger, logFormats, type LogFormat, type Logger } from '../api/log.ts';
import { UsageError, type Flag } from './command.ts';

export const loggingFlags: Record<string, Flag> = {
  v: { type: 'string', short: 'v', default: '0', description: 'number for the log level verbosity: 0 warnings and errors, 1 info, 4 debug' },
  'logging-format': { type: 'string', default: 'text', description: `Sets the log format. Permitted formats: ${logFormats.map(f => `"${f}"`).join(', ')}.` },
};

/** pflag's words for a value strconv.ParseUint(value, 10, 31) refuses */
export function parseVerbosity(value: string): number {
  const why = !/^[0-9]+$/.test(value) ? 'invalid syntax' : Number(value) > 2 ** 31 - 1 ? 'value out of range' : undefined;
  if (why) throw new UsageError(`invalid argument ${JSON.stringify(value)} for "-v, --v" flag: strconv.ParseUint: parsing ${JSON.stringify(value)}: ${why}`);
  return Number(value);
}

/** component-base's validation of the format: field "format", reason Invalid */
export function parseLogFormat(value: string): LogFormat {
  if (!(logFormats as readonly string[]).includes(value)) throw new UsageError(`format: Invalid value: ${JSON.stringify(value)}: Unsupported log format`);
  return value as LogFormat;
}

/** the logger the flags ask for, writing to stderr */
export function loggerFromFlags(values: Record<string, string | boolean | undefined>): Logger {
  const verbosity = parseVerbosity(String(values.v ?? '0'));
  const format = parseLogFormat(String(values['logging-format'] ?? 'text'));
  return createLogger(verbosity, undefined, { format });
}
