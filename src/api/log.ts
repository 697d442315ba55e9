// Structured logs: one JSON object per line on stderr. Quiet by default (warnings and errors);
// `--v=N` as in Kubernetes components raises the level: 1 = info, 4 = debug.

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const rank: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface Logger {
  error(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
  with(fields: Record<string, unknown>): Logger;
  /** whether a level is logged, to skip building fields on hot paths */
  enabled(level: LogLevel): boolean;
}

export function levelFromVerbosity(v: number): LogLevel {
  return v >= 4 ? 'debug' : v >= 1 ? 'info' : 'warn';
}

export function createLogger(level: LogLevel = 'warn', out: (line: string) => void = l => process.stderr.write(l), base: Record<string, unknown> = {}): Logger {
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (rank[lvl] > rank[level]) return;
    out(JSON.stringify({ ts: new Date().toISOString(), level: lvl, msg, ...base, ...fields }) + '\n');
  };
  return {
    error: (m, f) => emit('error', m, f),
    warn: (m, f) => emit('warn', m, f),
    info: (m, f) => emit('info', m, f),
    debug: (m, f) => emit('debug', m, f),
    with: f => createLogger(level, out, { ...base, ...f }),
    enabled: lvl => rank[lvl] <= rank[level],
  };
}

export const silentLogger: Logger = createLogger('error', () => {});
