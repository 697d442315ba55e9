// With API Priority and Fairness off, kube-apiserver's older limit: at most
// --max-requests-inflight read-only and --max-mutating-requests-inflight mutating requests at
// once (0: no limit), the rest refused at once; system:masters are never refused.

import type { User } from '../user.ts';

const privilegedGroup = 'system:masters';

export class MaxInflight {
  private limits: Record<'readOnly' | 'mutating', number>;
  private current = { readOnly: 0, mutating: 0 };
  constructor(readOnly: number, mutating: number) {
    this.limits = { readOnly, mutating };
  }

  /** the function that ends the request's turn, or undefined when it is refused */
  enter(kind: 'readOnly' | 'mutating', user: User): (() => void) | undefined {
    const limit = this.limits[kind];
    if (limit === 0) return () => {};
    if (this.current[kind] >= limit) {
      if (user.groups.includes(privilegedGroup)) return () => {};
      return undefined;
    }
    this.current[kind]++;
    let done = false;
    return () => { if (!done) { done = true; this.current[kind]--; } };
  }
}
