// Splits a POSIX shell script into words, operators and redirections. Only the part of the
// language the sim interprets is recognised; anything else (command substitution, here
// documents, input redirection) is a ShellSyntaxError and the caller decides what that means.

import { ArithSyntaxError, arithTokens } from './arith.ts';

export class ShellSyntaxError extends Error {}

/** literal text, or a parameter expanded when the command runs ($NAME, ${NAME}, $?) */
export type WordPart = { text: string } | { param: string } | { arith: string };

export interface WordToken {
  kind: 'word';
  parts: WordPart[];
  /** any quoting: keywords must be unquoted, and a quoted empty word is still a word */
  quoted: boolean;
}
export interface OpToken {
  kind: 'op';
  op: ';' | '&&' | '||' | '&' | '|' | '\n' | '!';
}
export interface RedirToken {
  kind: 'redir';
  fd: 1 | 2;
  append: boolean;
  /** ">&2" and "2>&1": the fd output goes where this other fd goes; else a file word follows */
  dupTo?: 1 | 2;
}
export type Token = WordToken | OpToken | RedirToken;

const nameStart = /[A-Za-z_]/;
const nameChar = /[A-Za-z0-9_]/;

export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const peek = (o = 0) => src[i + o] ?? '';

  const readParam = (parts: WordPart[]) => {
    // at "$"
    i++;
    const c = peek();
    if (c === '{') {
      const end = src.indexOf('}', i);
      if (end < 0) throw new ShellSyntaxError('missing }');
      const name = src.slice(i + 1, end);
      if (!/^([A-Za-z_][A-Za-z0-9_]*|[0-9?$#])$/.test(name)) throw new ShellSyntaxError(`bad substitution \${${name}}`);
      parts.push({ param: name });
      i = end + 1;
    } else if (c === '(' && peek(1) === '(') {
      // $(( arithmetic )), checked now so that a script outside the subset is known at once
      const end = src.indexOf('))', i + 2);
      if (end < 0) throw new ShellSyntaxError('missing ))');
      const expr = src.slice(i + 2, end);
      try { arithTokens(expr); } catch (err) { throw err instanceof ArithSyntaxError ? new ShellSyntaxError(err.message) : err; }
      parts.push({ arith: expr });
      i = end + 2;
    } else if (c === '(' || c === '`') {
      throw new ShellSyntaxError('command substitution is not interpreted');
    } else if (/[0-9?$#]/.test(c)) {
      parts.push({ param: c });
      i++;
    } else if (nameStart.test(c)) {
      let name = '';
      while (nameChar.test(peek())) name += src[i++];
      parts.push({ param: name });
    } else {
      parts.push({ text: '$' });
    }
  };

  while (i < src.length) {
    const c = peek();
    if (c === ' ' || c === '\t') { i++; continue; }
    if (c === '\\' && peek(1) === '\n') { i += 2; continue; }
    if (c === '#') { while (i < src.length && peek() !== '\n') i++; continue; }
    if (c === '\n' || c === ';') { out.push({ kind: 'op', op: c }); i++; continue; }
    if (c === '&' || c === '|') {
      if (peek(1) === c) { out.push({ kind: 'op', op: c === '&' ? '&&' : '||' }); i += 2; continue; }
      out.push({ kind: 'op', op: c }); i++; continue;
    }
    if (c === '(' || c === ')' || c === '`') throw new ShellSyntaxError(`"${c}" is not interpreted`);
    if (c === '<') throw new ShellSyntaxError('input redirection is not interpreted');
    const redir = /^([12]?)>(>|&([12]))?/.exec(src.slice(i));
    if (redir) {
      const fd = redir[1] === '2' ? 2 : 1;
      if (redir[3]) out.push({ kind: 'redir', fd, append: false, dupTo: redir[3] === '2' ? 2 : 1 });
      else out.push({ kind: 'redir', fd, append: redir[2] === '>' });
      i += redir[0].length;
      continue;
    }
    if (c === '!' && /[\s]/.test(peek(1) || ' ')) { out.push({ kind: 'op', op: '!' }); i++; continue; }
    // a word: runs of unquoted, single-quoted and double-quoted text up to a separator
    const parts: WordPart[] = [];
    let quoted = false;
    const text = (t: string) => {
      const last = parts[parts.length - 1];
      if (last && 'text' in last) last.text += t;
      else parts.push({ text: t });
    };
    while (i < src.length) {
      const d = peek();
      if (' \t\n;&|<>()`'.includes(d)) break;
      if (d === "'") {
        const end = src.indexOf("'", i + 1);
        if (end < 0) throw new ShellSyntaxError('unterminated quoted string');
        text(src.slice(i + 1, end));
        quoted = true;
        i = end + 1;
      } else if (d === '"') {
        quoted = true;
        text('');
        i++;
        for (;;) {
          if (i >= src.length) throw new ShellSyntaxError('unterminated quoted string');
          const e = peek();
          if (e === '"') { i++; break; }
          if (e === '\\' && '$`"\\\n'.includes(peek(1))) { if (peek(1) !== '\n') text(peek(1)); i += 2; continue; }
          if (e === '`') throw new ShellSyntaxError('command substitution is not interpreted');
          if (e === '$') { readParam(parts); continue; }
          text(e);
          i++;
        }
      } else if (d === '\\') {
        text(peek(1));
        quoted = true;
        i += 2;
      } else if (d === '$') {
        readParam(parts);
      } else {
        text(d);
        i++;
      }
    }
    out.push({ kind: 'word', parts, quoted });
  }
  return out;
}

/** a word made of literal text only, as argv elements are */
export function literalWord(text: string): WordToken {
  return { kind: 'word', parts: [{ text }], quoted: true };
}
