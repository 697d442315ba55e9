// The simulated pods' network namespaces, as far as port forwarding reaches them: a program in
// a pod that listens on a port (busybox `httpd -p 80`) gets a real listener on the host's
// loopback at a port of the kernel's choosing, recorded under the pod's sandbox and its own port
// number. A forwarded connection to that pod port is a real TCP connection to that listener;
// nothing listening there is refused as connecting to localhost in the pod would be.

import net from 'node:net';

export interface PodListener {
  close(): void;
}

export class SimNetwork {
  readonly #ports = new Map<string, Map<number, number>>();

  /** listens for the pod on its `port`; refuses a port already taken in that pod, as bind would */
  async listen(sandboxId: string, port: number, onConnection: (socket: net.Socket) => void): Promise<PodListener> {
    const ports = this.#ports.get(sandboxId) ?? new Map<number, number>();
    if (ports.has(port)) throw new Error(`bind: Address in use`);
    const server = net.createServer(onConnection);
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
    ports.set(port, (server.address() as net.AddressInfo).port);
    this.#ports.set(sandboxId, ports);
    return {
      close: () => {
        if (ports.get(port) === (server.address() as net.AddressInfo | null)?.port) ports.delete(port);
        server.close();
      },
    };
  }

  /** a connection to `port` in the pod, as the runtime's port forwarding makes it */
  connect(sandboxId: string, port: number): Promise<net.Socket> {
    const real = this.#ports.get(sandboxId)?.get(port);
    if (real === undefined) {
      return Promise.reject(new Error(`failed to connect to localhost:${port} inside namespace "${sandboxId}", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused `));
    }
    return new Promise((resolve, reject) => {
      const s = net.connect(real, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
  }

  /** the sandbox is gone: so are its listeners' records */
  forget(sandboxId: string): void {
    this.#ports.delete(sandboxId);
  }
}
