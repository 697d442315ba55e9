// The overloads of every function orch's CEL environment offers (environment.ts), as typed
// signatures for the checker: CEL's standard library, cel-go's strings extension, and the
// Kubernetes libraries (lists, regex, quantity, URL, sets, optionals, jsonpatch). Written as
// `id: [Target.]name(args) -> result`; one-letter names are type parameters. Ids follow cel-go's
// where the cost estimate prices an overload by id (add_string, equals, in_list, ...).

import { BOOL, BYTES, DOUBLE, DURATION, DYN, INT, NULL, STRING, TIMESTAMP, UINT, listOf, mapOf, opaque, optionalOf, param, type CelType } from './types.ts';

export interface Overload {
  id: string;
  member: boolean;
  args: readonly CelType[];
  result: CelType;
}

function parseType(src: string): CelType {
  const s = src.trim();
  const m = /^([\w.]+)\((.*)\)$/.exec(s);
  if (m) {
    const inner = splitTop(m[2]!).map(parseType);
    if (m[1] === 'list') return listOf(inner[0]!);
    if (m[1] === 'map') return mapOf(inner[0]!, inner[1]!);
    if (m[1] === 'optional') return optionalOf(inner[0]!);
    if (m[1] === 'type') return { kind: 'type', of: inner[0] };
  }
  switch (s) {
    case 'int': return INT; case 'uint': return UINT; case 'double': return DOUBLE; case 'bool': return BOOL;
    case 'string': return STRING; case 'bytes': return BYTES; case 'null': return NULL; case 'dyn': return DYN;
    case 'timestamp': return TIMESTAMP; case 'duration': return DURATION;
    default: return /^[A-Z]$/.test(s) ? param(s) : opaque(`kubernetes.${s}`);
  }
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ',' && depth === 0) { out.push(s.slice(start, i)); start = i + 1; }
  }
  if (s.trim()) out.push(s.slice(start));
  return out;
}

const table = `
add_int64: _+_(int, int) -> int; add_uint64: _+_(uint, uint) -> uint; add_double: _+_(double, double) -> double
add_string: _+_(string, string) -> string; add_bytes: _+_(bytes, bytes) -> bytes; add_list: _+_(list(A), list(A)) -> list(A)
add_timestamp_duration: _+_(timestamp, duration) -> timestamp; add_duration_timestamp: _+_(duration, timestamp) -> timestamp
add_duration_duration: _+_(duration, duration) -> duration
subtract_int64: _-_(int, int) -> int; subtract_uint64: _-_(uint, uint) -> uint; subtract_double: _-_(double, double) -> double
subtract_timestamp_timestamp: _-_(timestamp, timestamp) -> duration; subtract_timestamp_duration: _-_(timestamp, duration) -> timestamp
subtract_duration_duration: _-_(duration, duration) -> duration
multiply_int64: _*_(int, int) -> int; multiply_uint64: _*_(uint, uint) -> uint; multiply_double: _*_(double, double) -> double
divide_int64: _/_(int, int) -> int; divide_uint64: _/_(uint, uint) -> uint; divide_double: _/_(double, double) -> double
modulo_int64: _%_(int, int) -> int; modulo_uint64: _%_(uint, uint) -> uint
negate_int64: -_(int) -> int; negate_double: -_(double) -> double; logical_not: !_(bool) -> bool
not_strictly_false: @not_strictly_false(bool) -> bool
equals: _==_(A, A) -> bool; not_equals: _!=_(A, A) -> bool
conditional: _?_:_(bool, A, A) -> A
index_list: _[_](list(A), int) -> A; index_map: _[_](map(K, V), K) -> V
in_list: @in(A, list(A)) -> bool; in_map: @in(K, map(K, V)) -> bool
size_string: size(string) -> int; size_bytes: size(bytes) -> int; size_list: size(list(A)) -> int; size_map: size(map(K, V)) -> int
string_size: string.size() -> int; bytes_size: bytes.size() -> int; list_size: list(A).size() -> int; map_size: map(K, V).size() -> int
contains_string: string.contains(string) -> bool; starts_with_string: string.startsWith(string) -> bool
ends_with_string: string.endsWith(string) -> bool; matches_string: string.matches(string) -> bool; matches: matches(string, string) -> bool
int64_to_int64: int(int) -> int; uint64_to_int64: int(uint) -> int; double_to_int64: int(double) -> int; string_to_int64: int(string) -> int
timestamp_to_int64: int(timestamp) -> int
uint64_to_uint64: uint(uint) -> uint; int64_to_uint64: uint(int) -> uint; double_to_uint64: uint(double) -> uint; string_to_uint64: uint(string) -> uint
double_to_double: double(double) -> double; int64_to_double: double(int) -> double; uint64_to_double: double(uint) -> double; string_to_double: double(string) -> double
string_to_string: string(string) -> string; int64_to_string: string(int) -> string; uint64_to_string: string(uint) -> string
double_to_string: string(double) -> string; bytes_to_string: string(bytes) -> string; bool_to_string: string(bool) -> string
timestamp_to_string: string(timestamp) -> string; duration_to_string: string(duration) -> string
bytes_to_bytes: bytes(bytes) -> bytes; string_to_bytes: bytes(string) -> bytes
bool_to_bool: bool(bool) -> bool; string_to_bool: bool(string) -> bool
to_dyn: dyn(A) -> dyn; type: type(A) -> type(A)
string_to_duration: duration(string) -> duration; duration_to_duration: duration(duration) -> duration
string_to_timestamp: timestamp(string) -> timestamp; int64_to_timestamp: timestamp(int) -> timestamp; timestamp_to_timestamp: timestamp(timestamp) -> timestamp
`;

const timeAccessors = ['getFullYear', 'getMonth', 'getDate', 'getDayOfMonth', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];
const durationAccessors = ['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];

const extensions = `
string_char_at_int: string.charAt(int) -> string
string_index_of_string: string.indexOf(string) -> int; string_index_of_string_int: string.indexOf(string, int) -> int
string_last_index_of_string: string.lastIndexOf(string) -> int; string_last_index_of_string_int: string.lastIndexOf(string, int) -> int
string_lower_ascii: string.lowerAscii() -> string; string_upper_ascii: string.upperAscii() -> string
string_replace_string_string: string.replace(string, string) -> string; string_replace_string_string_int: string.replace(string, string, int) -> string
string_split_string: string.split(string) -> list(string); string_split_string_int: string.split(string, int) -> list(string)
string_substring_int: string.substring(int) -> string; string_substring_int_int: string.substring(int, int) -> string
string_trim: string.trim() -> string; list_join: list(string).join() -> string; list_join_string: list(string).join(string) -> string
string_format: string.format(list(dyn)) -> string; strings_quote: strings.quote(string) -> string
list_is_sorted: list(A).isSorted() -> bool; list_sum: list(A).sum() -> A; list_min: list(A).min() -> A; list_max: list(A).max() -> A
list_index_of: list(A).indexOf(A) -> int; list_last_index_of: list(A).lastIndexOf(A) -> int
string_find: string.find(string) -> string; string_find_all: string.findAll(string) -> list(string)
string_find_all_n: string.findAll(string, int) -> list(string)
string_to_quantity: quantity(string) -> Quantity; is_quantity_string: isQuantity(string) -> bool
quantity_sign: Quantity.sign() -> int; quantity_is_integer: Quantity.isInteger() -> bool; quantity_as_integer: Quantity.asInteger() -> int
quantity_as_float: Quantity.asApproximateFloat() -> double; quantity_add: Quantity.add(Quantity) -> Quantity; quantity_add_int: Quantity.add(int) -> Quantity
quantity_sub: Quantity.sub(Quantity) -> Quantity; quantity_sub_int: Quantity.sub(int) -> Quantity
quantity_is_greater_than: Quantity.isGreaterThan(Quantity) -> bool; quantity_is_less_than: Quantity.isLessThan(Quantity) -> bool
quantity_compare_to: Quantity.compareTo(Quantity) -> int
string_to_url: url(string) -> URL; is_url_string: isURL(string) -> bool
url_get_scheme: URL.getScheme() -> string; url_get_host: URL.getHost() -> string; url_get_hostname: URL.getHostname() -> string
url_get_port: URL.getPort() -> string; url_get_escaped_path: URL.getEscapedPath() -> string; url_get_query: URL.getQuery() -> map(string, list(string))
list_sets_contains_list: sets.contains(list(A), list(A)) -> bool; list_sets_equivalent_list: sets.equivalent(list(A), list(A)) -> bool
list_sets_intersects_list: sets.intersects(list(A), list(A)) -> bool
optional_of: optional.of(A) -> optional(A); optional_of_non_zero_value: optional.ofNonZeroValue(A) -> optional(A); optional_none: optional.none() -> optional(dyn)
optional_has_value: optional(A).hasValue() -> bool; optional_value: optional(A).value() -> A
optional_or_optional: optional(A).or(optional(A)) -> optional(A); optional_or_value_value: optional(A).orValue(A) -> A
jsonpatch_escape_key: jsonpatch.escapeKey(string) -> string
`;

const memberTargets = /^(string|bytes|timestamp|duration|Quantity|URL|.*\))\.(.+)$/;

function parseLine(decl: string): [string, Overload] {
  const colon = decl.indexOf(':');
  const arrow = decl.lastIndexOf('->');
  const id = decl.slice(0, colon).trim();
  const left = decl.slice(colon + 1, arrow).trim();
  // the arguments are the last parenthesized group; a target's own parentheses come before it
  let depth = 0, open = left.length - 1;
  for (; open >= 0; open--) {
    if (left[open] === ')') depth++;
    else if (left[open] === '(' && --depth === 0) break;
  }
  const head = left.slice(0, open);
  const m = memberTargets.exec(head);
  const target = m ? [parseType(m[1]!)] : [];
  const args = splitTop(left.slice(open + 1, -1)).map(parseType);
  return [m ? m[2]! : head, { id, member: !!m, args: [...target, ...args], result: parseType(decl.slice(arrow + 2)) }];
}

const byName = new Map<string, Overload[]>();
function add(name: string, o: Overload): void {
  const list = byName.get(name);
  if (list) list.push(o); else byName.set(name, [o]);
}
for (const block of [table, extensions]) {
  for (const decl of block.split(/[\n;]/)) if (decl.trim()) add(...parseLine(decl));
}
for (const op of ['_<_', '_<=_', '_>_', '_>=_']) {
  for (const t of ['bool', 'int', 'uint', 'double', 'string', 'bytes', 'timestamp', 'duration']) add(...parseLine(`${op}_${t}: ${op}(${t}, ${t}) -> bool`));
  // cel-go compares numbers across types
  for (const [a, b] of [['int', 'double'], ['int', 'uint'], ['uint', 'double'], ['double', 'int'], ['uint', 'int'], ['double', 'uint']]) add(...parseLine(`${op}_${a}_${b}: ${op}(${a}, ${b}) -> bool`));
}
for (const f of timeAccessors) {
  add(...parseLine(`timestamp_${f}: timestamp.${f}() -> int`));
  add(...parseLine(`timestamp_${f}_with_tz: timestamp.${f}(string) -> int`));
}
for (const f of durationAccessors) add(...parseLine(`duration_${f}: duration.${f}() -> int`));

/** the overloads of a function or operator; undefined when the environment has no such function */
export function overloadsOf(name: string): readonly Overload[] | undefined {
  return byName.get(name);
}
