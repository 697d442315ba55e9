// A test that needs a tool the machine may lack (containerd, etcd, kubectl, flock, python3,
// openssl) skips with the reason on a developer's machine. In CI (CI=true), where .ci/run
// installs every such tool, the missing tool fails instead: a missing install step cannot hide
// behind a skip.

export const inCI = process.env.CI === 'true';

/** the skip reason when a needed tool is missing (falsy: it is there); in CI, an error */
export function skipForMissing(reason: string): string;
export function skipForMissing(reason: string | false | undefined | null): string | false;
export function skipForMissing(reason: string | false | undefined | null): string | false {
  if (!reason) return false;
  if (inCI) throw new Error(`${reason} — CI installs every tool the tests need, so a missing one fails here`);
  return reason;
}
