// How the Pod Security checks word what they found, as Kubernetes' pod-security-admission
// does: a noun in the singular or plural by count, and names quoted and comma-joined.

/** `container "a"` or `containers "a", "b"` */
export function named(singular: string, plural: string, names: readonly string[]): string {
  return `${names.length === 1 ? singular : plural} ${names.map(n => JSON.stringify(n)).join(', ')}`;
}

/** the first word for one, the second for several ("uses" / "use") */
export function byCount(one: string, several: string, n: number): string {
  return n === 1 ? one : several;
}

/** distinct values in the order first met */
export function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}
