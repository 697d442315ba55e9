// A test that needs a tool the machine may lack (containerd, etcd, kubectl, flock, python3,
// openssl, the reference files beside the repository) skips with the reason on a developer's
// machine. In CI (CI=true), where .ci/run installs every such tool and shared/ sits beside the
// clone, the missing tool fails that test instead, with the same reason: a missing install step
// cannot hide behind a skip.
//
// Two forms, one rule:
//   test(name, requires(!existsSync(bin) && `${bin} not installed`), fn)   a test's or suite's options
//   if (!hasFlock) return t.skip(skipForMissing('flock not installed'))    inside a running test

export const inCI = process.env.CI === 'true';

type Reason = string | false | undefined | null;

function ciMessage(reason: string): string {
  return `${reason} — CI installs every tool the tests need, so a missing one fails here`;
}

/**
 * options for a test or suite that needs a tool, given the reason it is missing (falsy: it is
 * there, no options). Outside CI `{ skip: reason }`; in CI a signal already aborted with the
 * reason, so node:test fails that test (or every test of that suite) with it, hooks not run.
 */
export function requires(missing: Reason): { skip?: string; signal?: AbortSignal } {
  if (!missing) return {};
  if (inCI) return { signal: AbortSignal.abort(new Error(ciMessage(missing))) };
  return { skip: missing };
}

/** inside a running test: the skip reason for t.skip (falsy: the tool is there); in CI, throws, failing that test */
export function skipForMissing(reason: string): string;
export function skipForMissing(reason: Reason): string | false;
export function skipForMissing(reason: Reason): string | false {
  if (!reason) return false;
  if (inCI) throw new Error(ciMessage(reason));
  return reason;
}
