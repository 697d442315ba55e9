// The DNS server's sockets: UDP and TCP on one address and port (TCP for answers too large for a
// datagram, which clients retry there after a truncated reply). TCP carries length-prefixed
// messages, several per connection, as RFC 7766 allows; an idle connection is closed.

import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, isIPv6, type Server, type Socket } from 'node:net';

export interface DnsListener {
  host: string;
  port: number;
  close(): Promise<void>;
}

export type Handler = (msg: Buffer, udp: boolean) => Promise<Buffer | undefined>;

const tcpIdleMs = 10_000;

function serveTcpConnection(sock: Socket, handle: Handler, onError: (err: unknown) => void): void {
  let buf = Buffer.alloc(0);
  sock.setTimeout(tcpIdleMs, () => sock.destroy());
  sock.on('error', () => sock.destroy());
  sock.on('data', d => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
      const msg = buf.subarray(2, 2 + buf.readUInt16BE(0));
      buf = buf.subarray(2 + msg.length);
      handle(msg, false).then(out => {
        if (!out || sock.destroyed) return;
        const len = Buffer.alloc(2);
        len.writeUInt16BE(out.length);
        sock.write(Buffer.concat([len, out]));
      }, onError);
    }
  });
}

function bindUdp(host: string, port: number, handle: Handler, onError: (err: unknown) => void): Promise<UdpSocket> {
  return new Promise((resolve, reject) => {
    const udp = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4' });
    udp.once('error', reject);
    udp.on('message', (msg, rinfo) => {
      handle(msg, true).then(out => { if (out) udp.send(out, rinfo.port, rinfo.address); }, onError);
    });
    udp.bind(port, host, () => { udp.off('error', reject); udp.on('error', onError); resolve(udp); });
  });
}

function listenTcp(host: string, port: number, handle: Handler, onError: (err: unknown) => void): Promise<Server> {
  return new Promise((resolve, reject) => {
    const tcp = createServer(sock => serveTcpConnection(sock, handle, onError));
    tcp.once('error', reject);
    tcp.listen(port, host, () => { tcp.off('error', reject); resolve(tcp); });
  });
}

/** UDP and TCP on host:port (port 0: a free port, the same for both) */
export async function listenDns(host: string, port: number, handle: Handler, onError: (err: unknown) => void): Promise<DnsListener> {
  for (let attempt = 0; ; attempt++) {
    const udp = await bindUdp(host, port, handle, onError);
    const bound = udp.address().port;
    let tcp: Server;
    try {
      tcp = await listenTcp(host, bound, handle, onError);
    } catch (err) {
      udp.close();
      // a free UDP port whose TCP twin is taken: another pick, when the port was ours to pick
      if (port === 0 && attempt < 5 && (err as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
      throw err;
    }
    const sockets = new Set<Socket>();
    tcp.on('connection', s => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
    return {
      host, port: bound,
      close: async () => {
        for (const s of sockets) s.destroy();
        await Promise.all([new Promise<void>(r => udp.close(() => r())), new Promise<void>(r => tcp.close(() => r()))]);
      },
    };
  }
}
