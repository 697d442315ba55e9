// The labelSelector query syntax: a lexer and a recursive-descent parser that accept and reject
// exactly what Kubernetes does, with the same error wording (clients print it verbatim).

import type { LabelOperator, LabelRequirement } from './label-requirement.ts';
import { invalidField, requirementError } from './label-requirement.ts';
import { labelKeyErrors } from '../label-rules.ts';

type Tok = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'ident' | 'in' | '<' | '!=' | 'notin' | '(';

interface Item { tok: Tok; lit: string }

const symbols = new Map<string, Tok>([
  [')', ')'], [',', ','], ['!', '!'], ['==', '=='], ['=', '='], ['>', '>'], ['<', '<'], ['!=', '!='], ['(', '('],
]);
const keywords = new Map<string, Tok>([['in', 'in'], ['notin', 'notin']]);
const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSymbol = (c: string) => '=!(),<>'.includes(c) && c !== '';

/** Splits the selector into tokens. A NUL reads as end of input, as it does upstream. */
function lex(s: string): Item[] {
  let pos = 0;
  const read = () => (pos < s.length ? s[pos++]! : '\0');
  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (isSpace(ch)) ch = read();
    if (ch === '\0') { items.push({ tok: 'end', lit: '' }); return items; }
    pos--;
    if (isSymbol(ch)) {
      // longest run of symbol characters that still names a token ("!=" before "!")
      let buf = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSymbol(c)) { pos--; break; }
        buf += c;
        const t = symbols.get(buf);
        if (t) last = { tok: t, lit: buf };
        else if (last) { pos--; break; }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
    } else {
      let buf = '';
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (isSymbol(c) || isSpace(c)) { pos--; break; }
        buf += c;
      }
      items.push({ tok: keywords.get(buf) ?? 'ident', lit: buf });
    }
  }
}

class Parser {
  private items: Item[];
  private pos = 0;
  constructor(s: string) { this.items = lex(s); }

  /** in a value position the words "in" and "notin" are plain identifiers */
  private peek(values: boolean): Item {
    const it = this.items[this.pos]!;
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'ident', lit: it.lit } : it;
  }

  private next(values: boolean): Item {
    const it = this.peek(values);
    this.pos++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek(true);
      if (tok === 'end') return reqs;
      if (tok !== 'ident' && tok !== '!') throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
      try {
        reqs.push(this.requirement());
      } catch (e) {
        throw new Error(`unable to parse requirement: ${(e as Error).message}`);
      }
      const after = this.next(true);
      if (after.tok === 'end') return reqs;
      if (after.tok !== ',') throw new Error(`found '${after.lit}', expected: ',' or 'end of string'`);
      const following = this.peek(true);
      if (following.tok !== 'ident' && following.tok !== '!') throw new Error(`found '${following.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): LabelRequirement {
    let unary: LabelOperator | undefined;
    let it = this.next(true);
    if (it.tok === '!') { unary = '!'; it = this.next(true); }
    if (it.tok !== 'ident') throw new Error(`found '${it.lit}', expected: identifier`);
    const key = it.lit;
    const keyErrs = labelKeyErrors(key);
    // the parser validates the key without a field path, hence Kubernetes' "<nil>"
    if (keyErrs.length) throw new Error(invalidField('<nil>', key, keyErrs.join('; ')));
    const ahead = this.peek(true).tok;
    if (!unary && (ahead === 'end' || ahead === ',')) unary = 'exists';
    let r: LabelRequirement;
    if (unary) {
      r = { key, operator: unary, values: [] };
    } else {
      const operator = this.operator();
      const raw = operator === 'in' || operator === 'notin' ? this.setValues() : this.exactValue();
      // values behave as a set: duplicates fold and the list is sorted
      r = { key, operator, values: [...new Set(raw)].sort() };
    }
    const err = requirementError(r);
    if (err) throw new Error(err);
    return r;
  }

  private operator(): LabelOperator {
    const { tok, lit } = this.next(false);
    switch (tok) {
      case 'in': return 'in';
      case 'notin': return 'notin';
      case '=': return '=';
      case '==': return '==';
      case '!=': return '!=';
      case '>': return 'gt';
      case '<': return 'lt';
      default: throw new Error(`found '${lit}', expected: ${binaryOperators}`);
    }
  }

  private setValues(): string[] {
    const open = this.next(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const first = this.peek(true);
    if (first.tok === ')') { this.pos++; return ['']; }
    if (first.tok !== 'ident' && first.tok !== ',') throw new Error(`found '${first.lit}', expected: ',', ')' or identifier`);
    const vals = this.identifierList();
    if (this.next(true).tok !== ')') throw new Error(`found '${first.lit}', expected: ')'`);
    return vals;
  }

  /** a comma list that may hold empty entries: "(,a)", "(a,)", "(a,,b)" */
  private identifierList(): string[] {
    const vals: string[] = [];
    for (;;) {
      const it = this.next(true);
      if (it.tok === 'ident') {
        vals.push(it.lit);
        const ahead = this.peek(true);
        if (ahead.tok === ',') continue;
        if (ahead.tok === ')') return vals;
        throw new Error(`found '${ahead.lit}', expected: ',' or ')'`);
      }
      if (it.tok !== ',') throw new Error(`found '${it.lit}', expected: ',', or identifier`);
      if (vals.length === 0) vals.push('');
      const ahead = this.peek(true).tok;
      if (ahead === ')') { vals.push(''); return vals; }
      if (ahead === ',') vals.push('');
    }
  }

  private exactValue(): string[] {
    const ahead = this.peek(true).tok;
    if (ahead === 'end' || ahead === ',') return [''];
    const it = this.next(true);
    if (it.tok === 'ident') return [it.lit];
    throw new Error(`found '${it.lit}', expected: identifier`);
  }
}

/** parses the labelSelector syntax into requirements in source order; throws Error with Kubernetes' message */
export function parseRequirements(s: string): LabelRequirement[] {
  return new Parser(s).parse();
}
