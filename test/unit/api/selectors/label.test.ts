import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatLabelSelector, labelExactMatch, matchesLabels, parseLabelSelector,
} from '../../../../src/api/selectors/label.ts';
import { StatusError } from '../../../../src/api/status.ts';

const roundTrip = (s: string) => formatLabelSelector(parseLabelSelector(s));

/** the 400 BadRequest message a selector is rejected with */
function rejection(s: string): string {
  try {
    parseLabelSelector(s);
  } catch (e) {
    assert.ok(e instanceof StatusError, `not a StatusError: ${String(e)}`);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    return e.message;
  }
  assert.fail(`${JSON.stringify(s)} was accepted`);
}

const keyNameRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRule = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('empty and blank selectors select everything', () => {
  for (const s of ['', ' ', '\t\r\n']) {
    const sel = parseLabelSelector(s);
    assert.equal(sel.empty, true);
    assert.deepEqual(sel.requirements, []);
    assert.equal(matchesLabels(sel, undefined), true);
  }
});

test('every operator parses to its requirement', () => {
  const one = (s: string) => parseLabelSelector(s).requirements;
  assert.deepEqual(one('a'), [{ key: 'a', operator: 'exists', values: [] }]);
  assert.deepEqual(one('!a'), [{ key: 'a', operator: '!', values: [] }]);
  assert.deepEqual(one('a=b'), [{ key: 'a', operator: '=', values: ['b'] }]);
  assert.deepEqual(one('a==b'), [{ key: 'a', operator: '==', values: ['b'] }]);
  assert.deepEqual(one('a!=b'), [{ key: 'a', operator: '!=', values: ['b'] }]);
  assert.deepEqual(one('a in (y,x)'), [{ key: 'a', operator: 'in', values: ['x', 'y'] }]);
  assert.deepEqual(one('a notin (x)'), [{ key: 'a', operator: 'notin', values: ['x'] }]);
  assert.deepEqual(one('a>5'), [{ key: 'a', operator: 'gt', values: ['5'] }]);
  assert.deepEqual(one('a<5'), [{ key: 'a', operator: 'lt', values: ['5'] }]);
  assert.deepEqual(one('a='), [{ key: 'a', operator: '=', values: [''] }]);
});

test('canonical string form: sorted by key, spaces dropped, set values sorted', () => {
  const same = ['x=a,y=b,z=c', 'x!=a,y=b', 'x=', 'x=,z=', '!x', 'x>1', 'x>1,z<5', 'x==a'];
  for (const s of same) assert.equal(roundTrip(s), s);
  assert.equal(roundTrip('x= ,z= '), 'x=,z=');
  assert.equal(roundTrip('b=1,a=2'), 'a=2,b=1');
  assert.equal(roundTrip('x notin (abc,,def),bar,z in (),w'), 'bar,w,x notin (,abc,def),z in ()');
  assert.equal(roundTrip('x in (foo,,baz),y,z notin ()'), 'x in (,baz,foo),y,z notin ()');
  assert.equal(roundTrip('0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)'), '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)');
  // one key may carry several requirements; they keep their written order
  assert.equal(roundTrip('z!=a,x=abc,z'), 'x=abc,z!=a,z');
});

test('whitespace: space, tab, CR and LF separate tokens', () => {
  assert.equal(roundTrip('\rx'), 'x');
  assert.equal(roundTrip('foo  in\t (abc)'), 'foo in (abc)');
  assert.equal(roundTrip('x notin\n (abc)'), 'x notin (abc)');
  assert.equal(roundTrip('x  notin\t\t\t(abc,def)'), 'x notin (abc,def)');
  assert.equal(roundTrip('a '), 'a');
});

test('set values: empty entries, duplicates and keywords', () => {
  const vals = (s: string) => parseLabelSelector(s).requirements[0]!.values;
  assert.deepEqual(vals('x in (abc,)'), ['', 'abc']);
  assert.deepEqual(vals('x in (abc,abc)'), ['abc']);
  assert.deepEqual(vals('x in ()'), ['']);
  assert.deepEqual(vals('x notin ( )'), ['']);
  assert.deepEqual(vals('x notin (, a)'), ['', 'a']);
  assert.deepEqual(vals('x in (a,,)'), ['', 'a']);
  assert.deepEqual(vals('x in (a,,,,,,)'), ['', 'a']);
  assert.deepEqual(vals('x in (a,,a,,a,,a,,)'), ['', 'a']);
  assert.deepEqual(vals('a in (x,y,notin, z,in)'), ['in', 'notin', 'x', 'y', 'z']);
  // "in" and "notin" are ordinary words where a key or value is expected
  assert.equal(roundTrip('in in (in)'), 'in in (in)');
  assert.equal(roundTrip('notin=in'), 'notin=in');
});

test('keys may carry a DNS subdomain prefix', () => {
  assert.equal(roundTrip('this-is-a-dns.domain.com/key-with-dash'), 'this-is-a-dns.domain.com/key-with-dash');
  assert.equal(roundTrip('app.kubernetes.io/name=web'), 'app.kubernetes.io/name=web');
  assert.equal(roundTrip(`${'a'.repeat(253)}/${'b'.repeat(63)}`), `${'a'.repeat(253)}/${'b'.repeat(63)}`);
});

test('syntax errors carry Kubernetes wording', () => {
  const ops = 'in, notin, =, ==, !=, gt, lt';
  assert.equal(rejection('a b'), `unable to parse requirement: found 'b', expected: ${ops}`);
  assert.equal(rejection('x nott in (y)'), `unable to parse requirement: found 'nott', expected: ${ops}`);
  assert.equal(rejection('a!b'), `unable to parse requirement: found '!', expected: ${ops}`);
  assert.equal(rejection('a (',), `unable to parse requirement: found '(', expected: ${ops}`);
  assert.equal(rejection('a=b c'), "found 'c', expected: ',' or 'end of string'");
  assert.equal(rejection('x==a==b'), "found '==', expected: ',' or 'end of string'");
  assert.equal(rejection('!x=a'), "found '=', expected: ',' or 'end of string'");
  assert.equal(rejection('a in (xyz)b notin ()'), "found 'b', expected: ',' or 'end of string'");
  // "|" is an ordinary character, so the value is "a||y" and it is not a valid label value
  assert.match(rejection('x=a||y=b'), /^unable to parse requirement: values\[0\]\[x\]: Invalid value: "a\|\|y": a valid label/);
  assert.equal(rejection('a=(b)'), "unable to parse requirement: found '(', expected: identifier");
  assert.equal(rejection('a=!b'), "unable to parse requirement: found '!', expected: identifier");
  assert.equal(rejection('!'), "unable to parse requirement: found '', expected: identifier");
  assert.equal(rejection('a in b'), "unable to parse requirement: found 'b' expected: '('");
  assert.equal(rejection('a notin('), "unable to parse requirement: found '', expected: ',', ')' or identifier");
  assert.equal(rejection('a in (b'), "unable to parse requirement: found '', expected: ',' or ')'");
  assert.equal(rejection('a in (xyz abc)'), "unable to parse requirement: found 'abc', expected: ',' or ')'");
  assert.equal(rejection('a in (b,=)'), "unable to parse requirement: found '=', expected: ',', or identifier");
  assert.equal(rejection('a=b,'), "found '', expected: identifier after ','");
  assert.equal(rejection('a in (xyz),'), "found '', expected: identifier after ','");
  assert.equal(rejection('x,,y'), "found ',', expected: identifier after ','");
  assert.equal(rejection(',x,y'), "found ',', expected: !, identifier, or 'end of string'");
  assert.equal(rejection('('), "found '(', expected: !, identifier, or 'end of string'");
  assert.equal(rejection('=a'), "found '=', expected: !, identifier, or 'end of string'");
});

test('invalid keys are reported against the <nil> path', () => {
  assert.equal(rejection('-a'), `unable to parse requirement: <nil>: Invalid value: "-a": ${keyNameRule}`);
  assert.equal(rejection('app: nginx'), `unable to parse requirement: <nil>: Invalid value: "app:": ${keyNameRule}`);
  assert.equal(rejection('/a'), 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty');
  assert.equal(rejection('a/'), `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ${keyNameRule}`);
  assert.equal(rejection(`${'k'.repeat(64)}=v`), `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 bytes`);
  assert.match(rejection('a/b/c=x'), /^unable to parse requirement: <nil>: Invalid value: "a\/b\/c": a valid label key must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
  assert.match(rejection('app.kubernetes_io/name=x'), /^unable to parse requirement: <nil>: Invalid value: "app\.kubernetes_io\/name": prefix part a lowercase RFC 1123 subdomain must consist of /);
});

test('invalid values are reported as values[i][key]', () => {
  assert.equal(rejection('a=-x'), `unable to parse requirement: values[0][a]: Invalid value: "-x": ${valueRule}`);
  assert.equal(rejection(`a=${'v'.repeat(64)}`), `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`);
  // several bad values aggregate in brackets, indexed in sorted order
  assert.equal(rejection('a in (-y,-x)'),
    `unable to parse requirement: [values[0][a]: Invalid value: "-x": ${valueRule}, values[1][a]: Invalid value: "-y": ${valueRule}]`);
  // a multi-byte value over the byte limit, quoted the way Go quotes it
  assert.match(rejection(`a=${'é'.repeat(32)}`), /: Invalid value: "é{32}": must be no more than 63 bytes; a valid label/);
});

test('gt and lt need an integer', () => {
  assert.equal(rejection('x<a'), `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`);
  assert.equal(rejection('a>'), `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`);
  assert.match(rejection('a>9223372036854775808'), /the value must be an integer/);
  // a negative bound parses as an integer but is still not a valid label value
  assert.match(rejection('a<-5'), /^unable to parse requirement: values\[0\]\[a\]: Invalid value: "-5": a valid label/);
  assert.equal(roundTrip('a>9223372036854775807'), 'a>9223372036854775807');
});

test('matching follows Kubernetes semantics for each operator', () => {
  const m = (s: string, labels?: Record<string, string>) => matchesLabels(parseLabelSelector(s), labels);
  assert.equal(m('x=y', { x: 'y' }), true);
  assert.equal(m('x=y,z=w', { x: 'y', z: 'w' }), true);
  assert.equal(m('x!=y,z!=w', { x: 'z', z: 'a' }), true);
  assert.equal(m('x', { x: 'z' }), true);
  assert.equal(m('!x', { y: 'z' }), true);
  assert.equal(m('x>1', { x: '2' }), true);
  assert.equal(m('x<1', { x: '0' }), true);
  assert.equal(m('x=z', {}), false);
  assert.equal(m('x=z', undefined), false);
  assert.equal(m('x=y', { x: 'z' }), false);
  assert.equal(m('x=y,z=w', { x: 'w', z: 'w' }), false);
  assert.equal(m('x!=y,z!=w', { x: 'z', z: 'w' }), false);
  assert.equal(m('x', { y: 'z' }), false);
  assert.equal(m('!x', { x: 'z' }), false);
  assert.equal(m('x>1', { x: '0' }), false);
  assert.equal(m('x<1', { x: '2' }), false);
  assert.equal(m('z>1', { z: 'v2' }), false);
  assert.equal(m('z>1', {}), false);
  assert.equal(m('x in (foo),y notin (alpha)', { x: 'foo', y: 'baz' }), true);
  assert.equal(m('x in (foo),y in (alpha)', { x: 'foo', y: 'baz' }), false);
  // notin and != also match objects without the label
  assert.equal(m('x notin (),y', { y: '' }), true);
  assert.equal(m('x!=a', undefined), true);
  assert.equal(m('!x,y', { y: '' }), true);
  assert.equal(m('x notin (),!y', { y: '' }), false);
  assert.equal(m('x in ()', { y: 'baz' }), false);
  assert.equal(m('x in ()', { x: '' }), true);
  assert.equal(m('x=', { x: '' }), true);
  // labels inherited from Object.prototype are not labels
  assert.equal(m('constructor', {}), false);
});

test('labelExactMatch finds the value a key is pinned to', () => {
  assert.equal(labelExactMatch(parseLabelSelector('a=1,b=2'), 'b'), '2');
  assert.equal(labelExactMatch(parseLabelSelector('a in (1)'), 'a'), '1');
  assert.equal(labelExactMatch(parseLabelSelector('a in (1,2)'), 'a'), undefined);
  assert.equal(labelExactMatch(parseLabelSelector('a!=1'), 'a'), undefined);
  assert.equal(labelExactMatch(parseLabelSelector('b=1'), 'a'), undefined);
});
