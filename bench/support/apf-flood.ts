// The APF bench's noisy client (`node bench/support/apf-flood.ts URL DATA_DIR USER PATH MS`): 200
// GETs of PATH in flight at all times for MS, as USER (a certificate from the data dir's CA), over
// 8 connections (one HTTP/2 connection with 200 large lists in flight passes Node's per-session
// memory bound); prints the answers by status, and the priority level they were given, as JSON.

import { connect } from './load.ts';
import { userTls } from './admin-tls.ts';

const [url, dataDir, user, path, ms] = process.argv.slice(2);
const tls = await userTls(dataDir!, user!);
const sessions = Array.from({ length: 8 }, () => connect(url!, tls));
let ok = 0, tooMany = 0, other = 0;
let level = '';
const one = (session: ReturnType<typeof connect>) => new Promise<void>(res => {
  const s = session.request({ ':method': 'GET', ':path': path! });
  let code = 0;
  s.on('response', h => { code = Number(h[':status']); level ||= String(h['x-kubernetes-pf-prioritylevel-uid'] ?? ''); });
  s.on('data', () => {});
  s.on('end', () => { if (code === 200) ok++; else if (code === 429) tooMany++; else other++; res(); });
  s.on('error', () => { other++; res(); });
  s.end();
});
const started = performance.now();
const end = started + Number(ms);
await Promise.all(Array.from({ length: 200 }, async (_, i) => { while (performance.now() < end) await one(sessions[i % 8]!); }));
const seconds = (performance.now() - started) / 1000;
for (const s of sessions) s.close();
process.stdout.write(JSON.stringify({ perSecond: (ok + tooMany + other) / seconds, ok, tooMany, other, level }));
