// The raw baseline: a bare HTTP/2 TLS server (same certificates, same protocol as orch) that
// answers every request with a fixed payload, optionally inserting into bare SQLite first.
// Run as a child process: node bench/support/raw-server.ts <certdir> plain|sqlite|fanout <payload-file> [db]

import http2 from 'node:http2';
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';

const [certDir, mode, payloadFile, dbPath] = process.argv.slice(2) as [string, string, string, string?];
const payload = readFileSync(payloadFile);
let insert: ((k: string, v: Buffer) => void) | undefined;
if (mode === 'sqlite' && dbPath) {
  const db = new DatabaseSync(dbPath);
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; CREATE TABLE IF NOT EXISTS kv (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, value BLOB)');
  const stmt = db.prepare('INSERT INTO kv (name, value) VALUES (?, ?)');
  insert = (k, v) => { stmt.run(k, v); };
}
const server = http2.createSecureServer({
  allowHTTP1: true,
  cert: readFileSync(join(certDir, 'apiserver.crt')),
  key: readFileSync(join(certDir, 'apiserver.key')),
  ca: readFileSync(join(certDir, 'ca.crt')),
  requestCert: true,
  rejectUnauthorized: false,
});
let n = 0;
// mode 'fanout': GETs with ?watch stay open; every POST body goes to all of them as one line
const watchers = new Set<import('node:http2').Http2ServerResponse>();
server.on('request', (req, res) => {
  if (mode === 'fanout' && req.method === 'GET' && req.url.includes('watch')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write("");
    watchers.add(res);
    res.on('close', () => watchers.delete(res));
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    // a parse and a stringify stand for the least any JSON API does per request
    if (body.length) JSON.parse(body.toString('utf8'));
    if (insert && req.method === 'POST') insert(`k${n++}`, body);
    if (mode === 'fanout' && req.method === 'POST') {
      const line = JSON.stringify({ type: 'ADDED', object: JSON.parse(body.toString('utf8')) }) + '\n';
      for (const w of watchers) w.write(line);
    }
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': payload.length });
    res.end(payload);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on https://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
