// Which devices a container gets, as the kubelet's device manager picks them: devices an init
// container held first (they are free again once it ends), then the plugin's preferred set when
// it offers GetPreferredAllocation, then any healthy free device. Errors carry the kubelet's words;
// the caller turns them into an UnexpectedAdmissionError.

export interface ChooseInput {
  resource: string;
  needed: number;
  /** devices the container already holds (a restart): the same count, or the request changed */
  held?: string[];
  /** absent: no plugin has ever registered the resource */
  healthy?: Set<string>;
  inUse: Set<string>;
  reusable: Set<string>;
  podUID: string;
  container: string;
  /** the plugin's preference among `available`, keeping `mustInclude` (only when it offers one) */
  preferred?: (available: string[], mustInclude: string[], size: number) => Promise<string[]>;
}

/** the devices to allocate now; empty when the container already holds what it needs */
export async function chooseDevices(i: ChooseInput): Promise<string[]> {
  const held = i.held ?? [];
  if (i.held) {
    if (held.length !== i.needed) throw new Error(`pod "${i.podUID}" container "${i.container}" changed request for resource "${i.resource}" from ${held.length} to ${i.needed}`);
  }
  if (!i.healthy) throw new Error(`cannot allocate unregistered device ${i.resource}`);
  if (i.healthy.size === 0) throw new Error(`no healthy devices present; cannot allocate unhealthy devices ${i.resource}`);
  if (!held.every(d => i.healthy!.has(d))) throw new Error(`previously allocated devices are no longer healthy; cannot allocate unhealthy devices ${i.resource}`);
  let needed = i.needed - held.length;
  if (needed === 0) return [];
  const chosen: string[] = [];
  const take = (from: Iterable<string>) => {
    for (const d of from) {
      if (needed === 0) break;
      if (chosen.includes(d)) continue;
      chosen.push(d);
      needed--;
    }
    return needed === 0;
  };
  if (take(i.reusable)) return chosen;
  const available = [...i.healthy].filter(d => !i.inUse.has(d) && !chosen.includes(d));
  if (available.length < needed) throw new Error(`requested number of devices unavailable for ${i.resource}. Requested: ${needed}, Available: ${available.length}`);
  if (i.preferred) {
    const pool = [...available, ...chosen];
    const preferred = await i.preferred(pool, [...chosen], i.needed).catch(err => { throw new Error(`device plugin GetPreferredAllocation rpc failed with err: ${(err as { details?: string }).details ?? (err as Error).message}`); });
    if (take(preferred.filter(d => available.includes(d)))) return chosen;
  }
  if (take(available)) return chosen;
  throw new Error(`unexpectedly allocated less resources than required. Requested: ${i.needed}, Got: ${i.needed - needed}`);
}
