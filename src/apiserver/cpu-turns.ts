// One thread serves every request. A handler that then works for milliseconds without a pause
// (a list of a thousand objects read, assembled, encoded and written) holds every other
// request's I/O back for as long; twenty such lists admitted together run back to back and a
// Lease renewal that arrived meanwhile waits for all of them. Go's server has no such queue:
// its goroutines share the CPUs. So heavy handlers take turns here: at most one turn begins per
// event-loop iteration, and between two turns the loop reads, runs and answers whatever light
// requests arrived. Measured in the APF bench (200 concurrent lists of 1,000 ConfigMaps): the
// renewal's p50 under the flood went from about 40 ms to 9.
//
// Turns go round-robin between the requests' priority levels, first come first served within
// one, so that a level flooded with lists does not put another level's list behind all of its own.
// The queue belongs to the thread, not to a server: servers sharing a process share its loop.

const waiting = new Map<string, Array<() => void>>();
let scheduled = false;

/** resolves when the caller may run its heavy synchronous part (one per loop iteration) */
export function cpuTurn(level = ''): Promise<void> {
  return new Promise(resolve => {
    const queue = waiting.get(level);
    if (queue) queue.push(resolve);
    else waiting.set(level, [resolve]);
    schedule();
  });
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // an immediate queued from the check phase runs in the next iteration, after its poll phase
  setImmediate(grant);
}

function grant(): void {
  scheduled = false;
  // the level first in the map goes now and, still waiting, moves to the back
  const [level, queue] = waiting.entries().next().value!;
  const next = queue.shift()!;
  waiting.delete(level);
  if (queue.length > 0) waiting.set(level, queue);
  if (waiting.size > 0) schedule();
  next();
}

/** requests waiting for a turn (for tests) */
export function turnsWaiting(): number {
  let n = 0;
  for (const q of waiting.values()) n += q.length;
  return n;
}
