// Element order after merging a list. Items the patch mentions follow the patch's order (or the
// $setElementOrder list); items only the server had keep their relative order and are slotted in
// ahead of the first patch item that the server listed after them. An item new to the server is
// never preceded by server-only items it cannot be compared with, which is why a container added
// by a patch lands at the front of the list, as it does in Kubernetes.

/** the identity of a list item: its merge key value for maps, the value itself for scalars */
export function itemKey(item: unknown, mergeKey: string | undefined): unknown {
  if (!mergeKey) return item;
  if (item === null || typeof item !== 'object') return undefined;
  const k = (item as Record<string, unknown>)[mergeKey];
  return k === undefined ? null : k;
}

/** position of each key's first occurrence */
export function positions(list: readonly unknown[], mergeKey: string | undefined): Map<unknown, number> {
  const m = new Map<unknown, number>();
  list.forEach((item, i) => { const k = itemKey(item, mergeKey); if (!m.has(k)) m.set(k, i); });
  return m;
}

/** split `merged` into items whose key appears in `by` and the rest, keeping their order */
export function partition(merged: readonly unknown[], by: readonly unknown[], mergeKey: string | undefined): [unknown[], unknown[]] {
  const keys = new Set(by.map(x => itemKey(x, mergeKey)));
  const inBy: unknown[] = [], rest: unknown[] = [];
  for (const item of merged) (keys.has(itemKey(item, mergeKey)) ? inBy : rest).push(item);
  return [inBy, rest];
}

/** a stable sort by position in `order`; items not found there go last */
function sortBy(items: unknown[], order: Map<unknown, number>, mergeKey: string | undefined): unknown[] {
  const at = (x: unknown): number => order.get(itemKey(x, mergeKey)) ?? Number.MAX_SAFE_INTEGER;
  return items.map((x, i) => ({ x, i, p: at(x) })).sort((a, b) => a.p - b.p || a.i - b.i).map(e => e.x);
}

/**
 * The final order: `patchItems` sorted by `patchOrder`, `serverOnly` sorted by `serverOrder`, then
 * interleaved — a server-only item goes first only when the server listed it before the patch
 * item it is compared with.
 */
export function normalizeOrder(
  patchItems: unknown[], serverOnly: unknown[], patchOrder: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string | undefined,
): unknown[] {
  const server = positions(serverOrder, mergeKey);
  const right = sortBy(patchItems, positions(patchOrder, mergeKey), mergeKey);
  const left = sortBy(serverOnly, server, mergeKey);
  const out: unknown[] = [];
  let i = 0, j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) { out.push(left[i++]); continue; }
    if (i >= left.length) { out.push(right[j++]); continue; }
    const li = server.get(itemKey(left[i], mergeKey));
    const ri = server.get(itemKey(right[j], mergeKey));
    if (li !== undefined && ri !== undefined && li < ri) out.push(left[i++]);
    else out.push(right[j++]);
  }
  return out;
}
