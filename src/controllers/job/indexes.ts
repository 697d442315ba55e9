// Sets of completion indexes as Jobs write them in status.completedIndexes and failedIndexes:
// ordered, merged intervals printed as "1,3-5,7" (two neighbours as "1,2", runs as "a-b").

export interface Interval { first: number; last: number }
export type Intervals = Interval[];

/** the intervals a status string names, dropping indexes at or past `completions` and unreadable parts */
export function parseIndexes(text: string | undefined, completions: number): Intervals {
  if (!text) return [];
  const out: Intervals = [];
  for (const part of text.split(',')) {
    const [a, b] = part.split('-');
    const first = Number.parseInt(a ?? '', 10);
    if (!Number.isFinite(first)) continue;
    if (first >= completions) break;
    let last = first;
    if (b !== undefined) {
      last = Number.parseInt(b, 10);
      if (!Number.isFinite(last)) continue;
      if (last >= completions) last = completions - 1;
    }
    const prev = out[out.length - 1];
    if (prev && prev.last === first - 1) prev.last = last;
    else out.push({ first, last });
  }
  return out;
}

/** the union of two interval lists */
export function mergeIntervals(a: Intervals, b: Intervals): Intervals {
  const all = [...a, ...b].sort((x, y) => x.first - y.first);
  const out: Intervals = [];
  for (const iv of all) {
    const prev = out[out.length - 1];
    if (!prev || iv.first > prev.last + 1) out.push({ ...iv });
    else if (prev.last < iv.last) prev.last = iv.last;
  }
  return out;
}

export function withIndexes(iv: Intervals, indexes: Iterable<number>): Intervals {
  return mergeIntervals(iv, [...indexes].map(i => ({ first: i, last: i })));
}

export function totalIndexes(iv: Intervals): number {
  return iv.reduce((n, x) => n + x.last - x.first + 1, 0);
}

export function hasIndex(iv: Intervals | undefined, ix: number): boolean {
  return !!iv?.some(x => x.first <= ix && ix <= x.last);
}

export function formatIndexes(iv: Intervals): string {
  return iv.map(x => (x.last === x.first ? `${x.first}` : x.last === x.first + 1 ? `${x.first},${x.last}` : `${x.first}-${x.last}`)).join(',');
}

/** the first `count` indexes below `completions` that no interval covers */
export function firstPendingIndexes(covered: Intervals, count: number, completions: number): number[] {
  const out: number[] = [];
  let candidate = 0;
  for (const iv of covered) {
    for (; candidate < completions && out.length < count && candidate < iv.first; candidate++) out.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && out.length < count; candidate++) out.push(candidate);
  return out;
}
