import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeFieldValue, exactName, exactNamespace, formatFieldSelector, matchesFields, parseFieldSelector,
  renameFields, unescapeFieldValue,
} from '../../../../src/api/selectors/field.ts';
import { StatusError } from '../../../../src/api/status.ts';

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof StatusError, `not a StatusError: ${String(e)}`);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    return e.message;
  }
  assert.fail('accepted');
}

const roundTrip = (s: string) => formatFieldSelector(parseFieldSelector(s));

test('operators: =, == and != (== reads as =)', () => {
  assert.deepEqual(parseFieldSelector('a=1').requirements, [{ field: 'a', operator: '=', value: '1' }]);
  assert.deepEqual(parseFieldSelector('a==1').requirements, [{ field: 'a', operator: '=', value: '1' }]);
  assert.deepEqual(parseFieldSelector('a!=1').requirements, [{ field: 'a', operator: '!=', value: '1' }]);
  assert.deepEqual(parseFieldSelector('a=').requirements, [{ field: 'a', operator: '=', value: '' }]);
  // the first operator in the term wins, whatever follows
  assert.deepEqual(parseFieldSelector('a=!b').requirements, [{ field: 'a', operator: '=', value: '!b' }]);
});

test('terms are ANDed, sorted as written, and empty terms are skipped', () => {
  assert.equal(roundTrip('x=a,y=b,z=c'), 'x=a,y=b,z=c');
  assert.equal(roundTrip('x!=a,y=b'), 'x!=a,y=b');
  assert.equal(roundTrip('x=a,a=x'), roundTrip('a=x,x=a'));
  assert.equal(roundTrip('x=a,a=x'), 'a=x,x=a');
  assert.equal(roundTrip('b==2,a=1'), 'a=1,b=2');
  assert.equal(roundTrip(',a=a,'), 'a=a');
  for (const s of ['', ',', ',,']) {
    const sel = parseFieldSelector(s);
    assert.equal(sel.empty, true);
    assert.equal(matchesFields(sel, {}), true);
  }
});

test('whitespace is not trimmed', () => {
  assert.deepEqual(parseFieldSelector('a = b').requirements, [{ field: 'a ', operator: '=', value: ' b' }]);
});

test('escaping: \\, \\= and \\\\ in values', () => {
  const k = (s: string) => parseFieldSelector(s).requirements.find(r => r.field === 'k')!.value;
  assert.equal(k('k=\\,,k2=v2'), ',');
  assert.equal(k('k=\\\\,k2=v2'), '\\');
  assert.equal(k('k=\\\\\\,,k2=v2'), '\\,');
  // "k2=v2" sorts before "k=..." ('2' < '=')
  assert.deepEqual(parseFieldSelector('k=\\,,k2=v2').requirements.map(r => r.field), ['k2', 'k']);
  assert.equal(parseFieldSelector('x=a\\=\\=b').requirements[0]!.value, 'a==b');
  assert.equal(roundTrip('x=a||y\\=b'), 'x=a||y\\=b');
  assert.equal(roundTrip('x=a\\=\\=b'), 'x=a\\=\\=b');
  assert.deepEqual(parseFieldSelector('함=수,목=록').requirements.map(r => r.field), ['목', '함']);
  for (const [raw, escaped] of [['', ''], ['a', 'a'], ['=', '\\='], [',', '\\,'], ['\\', '\\\\'], ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\']]) {
    assert.equal(escapeFieldValue(raw!), escaped);
    assert.equal(unescapeFieldValue(escaped!), raw);
  }
});

test('syntax errors carry Kubernetes wording', () => {
  assert.equal(rejection(() => parseFieldSelector('x')), "invalid selector: 'x'; can't understand 'x'");
  assert.equal(rejection(() => parseFieldSelector('x=a,b')), "invalid selector: 'x=a,b'; can't understand 'b'");
  assert.equal(rejection(() => parseFieldSelector('x in (a)')), "invalid selector: 'x in (a)'; can't understand 'x in (a)'");
  assert.equal(rejection(() => parseFieldSelector('x=a||y=b')), 'invalid field selector: unescaped character in value: 61');
  assert.equal(rejection(() => parseFieldSelector('x==a==b')), 'invalid field selector: unescaped character in value: 61');
  assert.equal(rejection(() => parseFieldSelector('k=\\a')), 'invalid field selector: invalid escape sequence: \\a');
  assert.equal(rejection(() => parseFieldSelector('k=\\')), 'invalid field selector: invalid escape sequence: \\');
  assert.equal(rejection(() => parseFieldSelector('k=\\\\\\')), 'invalid field selector: invalid escape sequence: \\');
  assert.equal(rejection(() => unescapeFieldValue('a,b')), 'invalid field selector: unescaped character in value: 44');
});

test('matching: a missing field reads as the empty string', () => {
  const m = (s: string, f: Record<string, string>) => matchesFields(parseFieldSelector(s), f);
  assert.equal(m('x=y', { x: 'y' }), true);
  assert.equal(m('x=y,z=w', { x: 'y', z: 'w' }), true);
  assert.equal(m('x!=y,z!=w', { x: 'z', z: 'a' }), true);
  assert.equal(m('x=y', { x: 'z' }), false);
  assert.equal(m('x=y,z=w', { x: 'w', z: 'w' }), false);
  assert.equal(m('x!=y,z!=w', { x: 'z', z: 'w' }), false);
  assert.equal(m('x=', {}), true);
  assert.equal(m('x=z', {}), false);
  assert.equal(m('x!=z', {}), true);
  assert.equal(m('toString=', {}), true);
  assert.equal(m('k=a\\,b', { k: 'a,b' }), true);
});

test('exactName / exactNamespace report an "=" pin', () => {
  assert.equal(exactName(parseFieldSelector('metadata.name=web')), 'web');
  assert.equal(exactName(parseFieldSelector('metadata.name==web,status.phase=Running')), 'web');
  assert.equal(exactName(parseFieldSelector('metadata.name!=web')), undefined);
  assert.equal(exactName(parseFieldSelector('metadata.name!=a,metadata.name=b')), 'b');
  assert.equal(exactName(parseFieldSelector('status.phase=Running')), undefined);
  assert.equal(exactName(parseFieldSelector('metadata.name=')), undefined);
  assert.equal(exactNamespace(parseFieldSelector('metadata.namespace=kube-system,metadata.name=x')), 'kube-system');
  assert.equal(exactNamespace(parseFieldSelector('metadata.name=x')), undefined);
});

test('renameFields rewrites labels and keeps the original selector', () => {
  const sel = parseFieldSelector('spec.host=n1,status.phase=Running');
  const renamed = renameFields(sel, f => (f === 'spec.host' ? 'spec.nodeName' : f));
  assert.equal(formatFieldSelector(renamed), 'spec.nodeName=n1,status.phase=Running');
  assert.equal(formatFieldSelector(sel), 'spec.host=n1,status.phase=Running');
});
