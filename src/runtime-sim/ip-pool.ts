// Sandbox IPs from the pod subnet: each ready sandbox holds a distinct address until it is
// removed. The network address and the first host address (the bridge's gateway) are never
// handed out, nor the broadcast address.

export class IpPool {
  readonly #base: number;
  readonly #size: number;
  readonly #used = new Set<number>();
  #cursor = 2;

  constructor(cidr: string) {
    const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
    const octets = m ? m.slice(1, 5).map(Number) : [];
    const bits = m ? Number(m[5]) : NaN;
    if (!m || octets.some(o => o > 255) || bits > 30) throw new Error(`invalid pod subnet ${JSON.stringify(cidr)}: want an IPv4 CIDR of /30 or larger`);
    const addr = octets.reduce((a, o) => a * 256 + o, 0);
    this.#size = 2 ** (32 - bits);
    this.#base = addr - (addr % this.#size);
  }

  /** a free address, or undefined when every one is taken */
  allocate(): string | undefined {
    const hosts = this.#size - 3;
    for (let tried = 0; tried < hosts; tried++) {
      const offset = this.#cursor;
      // keep moving forward so that a released address is not reused at once, as host-local IPAM does
      this.#cursor = offset + 1 >= this.#size - 1 ? 2 : offset + 1;
      if (this.#used.has(offset)) continue;
      this.#used.add(offset);
      return format(this.#base + offset);
    }
    return undefined;
  }

  release(ip: string): void {
    const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
    if (!m) return;
    this.#used.delete(m.slice(1).map(Number).reduce((a, o) => a * 256 + o, 0) - this.#base);
  }
}

function format(n: number): string {
  return [n >>> 24 & 255, n >>> 16 & 255, n >>> 8 & 255, n & 255].join('.');
}
