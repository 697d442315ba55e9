// Scripts into commands: sequences (; & newline), && and ||, !, while/until, for, if and
// { } groups, simple commands with output redirections. Pipes and subshells are not
// interpreted and make the script a ShellSyntaxError.

import type { AndOr, Command, CommandList, Redirect, Word } from './ast.ts';
import { literalWord, ShellSyntaxError, tokenize, type Token } from './tokens.ts';

export function parseScript(src: string): CommandList {
  const p = new Parser(tokenize(src));
  const list = p.list(new Set());
  if (!p.done()) throw new ShellSyntaxError(`unexpected ${p.describe()}`);
  return list;
}

/** argv as given in a container spec: one simple command, no shell syntax */
export function argvCommand(argv: string[]): CommandList {
  return [{ negate: false, first: { kind: 'simple', words: argv.map(literalWord), redirects: [] }, rest: [] }];
}

const separators = new Set([';', '&', '\n']);

class Parser {
  readonly #tokens: Token[];
  #pos = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  done(): boolean {
    return this.#pos >= this.#tokens.length;
  }

  describe(): string {
    const t = this.#tokens[this.#pos];
    if (!t) return 'end of script';
    if (t.kind === 'op') return JSON.stringify(t.op);
    if (t.kind === 'redir') return 'redirection';
    return `word ${JSON.stringify(keywordOf(t) ?? '…')}`;
  }

  /** and-or lists up to one of the terminating keywords (left for the caller) or the end */
  list(terminators: Set<string>): CommandList {
    const out: CommandList = [];
    for (;;) {
      this.#skipSeparators();
      if (this.done()) return out;
      const t = this.#tokens[this.#pos]!;
      const kw = t.kind === 'word' ? keywordOf(t) : undefined;
      if (kw && terminators.has(kw)) return out;
      out.push(this.#andOr());
      const next = this.#tokens[this.#pos];
      if (next && !(next.kind === 'op' && separators.has(next.op))) throw new ShellSyntaxError(`unexpected ${this.describe()}`);
    }
  }

  #skipSeparators(): void {
    for (let t = this.#tokens[this.#pos]; t && t.kind === 'op' && separators.has(t.op); t = this.#tokens[this.#pos]) this.#pos++;
  }

  #skipNewlines(): void {
    for (let t = this.#tokens[this.#pos]; t && t.kind === 'op' && t.op === '\n'; t = this.#tokens[this.#pos]) this.#pos++;
  }

  #negation(): boolean {
    const t = this.#tokens[this.#pos];
    if (t?.kind === 'op' && t.op === '!') { this.#pos++; return true; }
    return false;
  }

  #andOr(): AndOr {
    const negate = this.#negation();
    const node: AndOr = { negate, first: this.#command(), rest: [] };
    for (;;) {
      const t = this.#tokens[this.#pos];
      if (t?.kind === 'op' && t.op === '|') throw new ShellSyntaxError('pipes are not interpreted');
      if (!(t?.kind === 'op' && (t.op === '&&' || t.op === '||'))) return node;
      this.#pos++;
      this.#skipNewlines();
      const neg = this.#negation();
      node.rest.push({ op: t.op, negate: neg, command: this.#command() });
    }
  }

  #expectKeyword(kw: string): void {
    this.#skipSeparators();
    const t = this.#tokens[this.#pos];
    if (!(t?.kind === 'word' && keywordOf(t) === kw)) throw new ShellSyntaxError(`expected "${kw}" but found ${this.describe()}`);
    this.#pos++;
  }

  #command(): Command {
    const t = this.#tokens[this.#pos];
    const kw = t?.kind === 'word' ? keywordOf(t) : undefined;
    if (kw === 'while' || kw === 'until') {
      this.#pos++;
      const cond = this.list(new Set(['do']));
      this.#expectKeyword('do');
      const body = this.list(new Set(['done']));
      this.#expectKeyword('done');
      return { kind: 'loop', until: kw === 'until', cond, body };
    }
    if (kw === 'for') {
      this.#pos++;
      const name = this.#tokens[this.#pos];
      if (name?.kind !== 'word' || !keywordOf(name) || !/^[A-Za-z_]\w*$/.test(keywordOf(name)!)) throw new ShellSyntaxError('bad for loop variable');
      this.#pos++;
      const items: Word[] = [];
      const inKw = this.#tokens[this.#pos];
      if (inKw?.kind === 'word' && keywordOf(inKw) === 'in') {
        this.#pos++;
        for (let w = this.#tokens[this.#pos]; w?.kind === 'word'; w = this.#tokens[this.#pos]) { items.push(w); this.#pos++; }
      }
      this.#expectKeyword('do');
      const body = this.list(new Set(['done']));
      this.#expectKeyword('done');
      return { kind: 'for', name: keywordOf(name)!, items, body };
    }
    if (kw === 'if') {
      this.#pos++;
      const branches: Array<{ cond: CommandList; body: CommandList }> = [];
      let otherwise: CommandList | undefined;
      for (;;) {
        const cond = this.list(new Set(['then']));
        this.#expectKeyword('then');
        const body = this.list(new Set(['elif', 'else', 'fi']));
        branches.push({ cond, body });
        this.#skipSeparators();
        const next = this.#tokens[this.#pos];
        const nk = next?.kind === 'word' ? keywordOf(next) : undefined;
        this.#pos++;
        if (nk === 'elif') continue;
        if (nk === 'else') { otherwise = this.list(new Set(['fi'])); this.#expectKeyword('fi'); break; }
        if (nk === 'fi') break;
        throw new ShellSyntaxError('expected "fi"');
      }
      return { kind: 'if', branches, ...(otherwise ? { otherwise } : {}) };
    }
    if (kw === '{') {
      this.#pos++;
      const body = this.list(new Set(['}']));
      this.#expectKeyword('}');
      return { kind: 'group', body };
    }
    if (kw && ['do', 'done', 'then', 'elif', 'else', 'fi', '}', 'in'].includes(kw)) throw new ShellSyntaxError(`unexpected word "${kw}"`);
    return this.#simple();
  }

  #simple(): Command {
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let t = this.#tokens[this.#pos]; t && t.kind !== 'op'; t = this.#tokens[this.#pos]) {
      this.#pos++;
      if (t.kind === 'word') { words.push(t); continue; }
      if (t.dupTo) { redirects.push({ fd: t.fd, append: false, target: t.dupTo }); continue; }
      const file = this.#tokens[this.#pos];
      if (file?.kind !== 'word') throw new ShellSyntaxError('redirection without a file');
      this.#pos++;
      redirects.push({ fd: t.fd, append: t.append, target: file });
    }
    if (words.length === 0 && redirects.length === 0) throw new ShellSyntaxError(`unexpected ${this.describe()}`);
    return { kind: 'simple', words, redirects };
  }
}

/** the word's text when it could be a keyword or a name: unquoted and without parameters */
function keywordOf(t: Token & { kind: 'word' }): string | undefined {
  if (t.quoted || t.parts.length !== 1) return undefined;
  const p = t.parts[0]!;
  return 'text' in p ? p.text : undefined;
}
