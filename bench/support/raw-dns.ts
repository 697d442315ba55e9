// The raw DNS baseline: the least a DNS server can do with the same library on the same socket
// type — decode the query, answer one fixed A record, encode. Run as a child process:
// node bench/support/raw-dns.ts   (prints "listening on 127.0.0.1:<port>")

import { createSocket } from 'node:dgram';
import * as packet from 'dns-packet';

const sock = createSocket('udp4');
sock.on('message', (msg, r) => {
  const q = packet.decode(msg);
  sock.send(packet.encode({
    type: 'response', id: q.id, flags: packet.AUTHORITATIVE_ANSWER, questions: q.questions,
    answers: [{ name: q.questions![0]!.name, type: 'A', class: 'IN', ttl: 5, data: '10.96.0.20' }],
  }), r.port, r.address);
});
sock.bind(0, '127.0.0.1', () => process.stdout.write(`listening on 127.0.0.1:${sock.address().port}\n`));
process.on('SIGTERM', () => sock.close(() => process.exit(0)));
