// What a replica controller is waiting to see from its pod watch: after it creates n pods or
// deletes some, it makes no further decisions for that owner until the watch has shown those
// changes (or the wait expires), so a lagging watch never makes it create or delete twice.
// Kubernetes' UIDTrackingControllerExpectations, keyed by owner and by pod key.

/** Kubernetes' ExpectationsTimeout: after this an owner is synced again whatever was seen */
export const expectationsTimeoutMs = 5 * 60 * 1000;

interface Expected { adds: number; deleting: Set<string>; since: number }

export class Expectations {
  private byOwner = new Map<string, Expected>();
  private now: () => number;

  constructor(now: () => number = Date.now) { this.now = now; }

  /** whether the owner's last creations and deletions have all been seen, or the wait expired */
  satisfied(owner: string): boolean {
    const e = this.byOwner.get(owner);
    if (!e) return true;
    if (e.adds <= 0 && e.deleting.size === 0) return true;
    return this.now() - e.since > expectationsTimeoutMs;
  }

  expectCreations(owner: string, n: number): void {
    this.byOwner.set(owner, { adds: n, deleting: new Set(), since: this.now() });
  }

  expectDeletions(owner: string, podKeys: string[]): void {
    this.byOwner.set(owner, { adds: 0, deleting: new Set(podKeys), since: this.now() });
  }

  creationObserved(owner: string): void {
    const e = this.byOwner.get(owner);
    if (e && e.adds > 0) e.adds--;
  }

  deletionObserved(owner: string, podKey: string): void {
    this.byOwner.get(owner)?.deleting.delete(podKey);
  }

  forget(owner: string): void { this.byOwner.delete(owner); }
}
