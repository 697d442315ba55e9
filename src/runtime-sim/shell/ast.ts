// The shape of an interpreted script.

import type { WordToken } from './tokens.ts';

export type Word = WordToken;

export interface Redirect {
  fd: 1 | 2;
  append: boolean;
  /** a file, or the other fd */
  target: Word | 1 | 2;
}

export interface SimpleCommand { kind: 'simple'; words: Word[]; redirects: Redirect[] }
export interface LoopCommand { kind: 'loop'; until: boolean; cond: CommandList; body: CommandList }
export interface ForCommand { kind: 'for'; name: string; items: Word[]; body: CommandList }
export interface IfCommand { kind: 'if'; branches: Array<{ cond: CommandList; body: CommandList }>; otherwise?: CommandList }
export interface GroupCommand { kind: 'group'; body: CommandList }
/** waits until the process is signalled: a daemon whose program the sim does not know */
export interface ForeverCommand { kind: 'forever' }

export type Command = SimpleCommand | LoopCommand | ForCommand | IfCommand | GroupCommand | ForeverCommand;

/** commands joined by && and ||, the first possibly negated with ! */
export interface AndOr {
  negate: boolean;
  first: Command;
  rest: Array<{ op: '&&' | '||'; negate: boolean; command: Command }>;
}

export type CommandList = AndOr[];
