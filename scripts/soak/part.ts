// What a part of `npm run soak` is: something that runs against orch for a while, says how it is
// doing every few seconds, and ends with a summary or a failure. scripts/soak.ts holds the table.

export interface SoakContext {
  /** performance.now() after which the part should wind up */
  until: number;
  /** the run's seed, for parts that draw at random */
  seed: number;
  /** a line for the log, at once (a failure as it happens, say) */
  log(line: string): void;
}

export interface RunningPart {
  /** one line of figures so far: requests, rates, memory, errors */
  status(): string;
  /** the summary once the part has ended; rejects with what failed */
  done: Promise<string>;
}

export interface SoakPart {
  name: string;
  /** one line for --help */
  about: string;
  start(ctx: SoakContext): Promise<RunningPart>;
}
