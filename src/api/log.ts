// Logs as Kubernetes components write them: klog's structured text by default, component-base's
// JSON with `--logging-format=json` (log-text.ts, log-json.ts). Quiet by default, as the
// developers' guide wants: `--v=N` is klog's verbosity and each call has a klog level:
//   error → E (ErrorS), always shown       warn → W (Warning), V(0), always shown
//   info  → I at V(1), shown from --v=1    debug → I at V(4), shown from --v=4
// so `--v=0` shows warnings and errors, as before; a logger made with the level 'error' (tests,
// embedded components) shows errors only.

import { jsonLine } from './log-json.ts';
import { textLine, type Severity } from './log-text.ts';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type LogFormat = 'text' | 'json';
export const logFormats: readonly LogFormat[] = ['json', 'text'];

/** the klog verbosity of each kind of call */
export const levelVerbosity: Record<LogLevel, number> = { error: 0, warn: 0, info: 1, debug: 4 };
const severity: Record<LogLevel, Severity> = { error: 'E', warn: 'W', info: 'I', debug: 'I' };

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
  with(fields: Record<string, unknown>): Logger;
  /** whether a level is logged, to skip building fields on hot paths */
  enabled(level: LogLevel): boolean;
}

export interface LogOptions {
  format?: LogFormat;
  /** Unix time in milliseconds, with a fraction */
  now?: () => number;
  /** what klog prints where Go's thread id belongs: the process id */
  pid?: number;
}

const ownFile = /\/api\/log(-\w+)?\.ts$/;

/** the file and line of the code that called the logger (only worked out for a line written) */
function caller(): { dir: string; file: string; line: number } {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 8;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const frame of stack.split('\n').slice(1)) {
    const m = /\(?(?:file:\/\/)?(\/[^()\s]*):(\d+):\d+\)?$/.exec(frame);
    if (!m || ownFile.test(m[1]!)) continue;
    const parts = m[1]!.split('/');
    return { dir: parts[parts.length - 2] ?? '', file: parts[parts.length - 1]!, line: Number(m[2]) };
  }
  return { dir: '', file: '???', line: 1 };
}

const wallClock = () => performance.timeOrigin + performance.now();

/**
 * threshold: a level (show that level and the more important ones) or a klog verbosity number.
 * out receives whole lines, each ending in a line break.
 */
export function createLogger(threshold: LogLevel | number = 'warn', out: (line: string) => void = l => process.stderr.write(l), opts: LogOptions = {}): Logger {
  const verbosity = typeof threshold === 'number' ? threshold : levelVerbosity[threshold];
  const shown: Record<LogLevel, boolean> = {
    error: true, warn: threshold !== 'error', info: threshold !== 'error' && verbosity >= 1, debug: threshold !== 'error' && verbosity >= 4,
  };
  const format = opts.format ?? 'text', now = opts.now ?? wallClock, pid = opts.pid ?? process.pid;
  const make = (context: Array<[string, unknown]>): Logger => {
    const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
      if (!shown[level]) return;
      const at = caller();
      const pairs = fields ? Object.entries(fields) : [];
      // klog's ErrorS takes the error apart from the pairs: text puts it first, zapr last
      let err: unknown;
      if (level === 'error' && fields && fields.err !== undefined) {
        err = fields.err;
        pairs.splice(pairs.findIndex(p => p[0] === 'err'), 1);
      }
      if (format === 'json') {
        const v = level === 'error' ? undefined : levelVerbosity[level];
        out(jsonLine({ epochMs: now(), caller: at.dir ? `${at.dir}/${at.file}:${at.line}` : `${at.file}:${at.line}`, msg, v, context, pairs, err }));
      } else {
        const all: Array<[string, unknown]> = err === undefined ? [...context, ...pairs] : [['err', err], ...context, ...pairs];
        out(textLine(severity[level], now(), pid, at.file, at.line, msg, all));
      }
    };
    return {
      error: (m, f) => emit('error', m, f),
      warn: (m, f) => emit('warn', m, f),
      info: (m, f) => emit('info', m, f),
      debug: (m, f) => emit('debug', m, f),
      with: f => make([...context, ...Object.entries(f)]),
      enabled: level => shown[level],
    };
  };
  return make([]);
}

export const silentLogger: Logger = createLogger('error', () => {});
