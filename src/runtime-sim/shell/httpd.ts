// busybox `httpd`: serves the container's files over HTTP on a port of the pod. With `-f` it
// stays in the foreground until signalled (as a container's main process runs it); without, it
// goes to the background, which here means the listener outlives the command, as a daemon would,
// until the container ends. Real sockets, real HTTP: a forwarded connection reaches it.

import type { ServerResponse } from 'node:http';
import { http } from '../../streaming/node-http.ts';
import { posix } from 'node:path';
import type { CommandIo, ShellAccess } from './host.ts';

const types: Record<string, string> = { '.html': 'text/html', '.htm': 'text/html', '.txt': 'text/plain', '.css': 'text/css', '.js': 'application/javascript', '.json': 'application/json' };

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/html', Connection: 'close' });
  res.end('<HTML><HEAD><TITLE>404 Not Found</TITLE></HEAD>\n<BODY><H1>404 Not Found</H1>\nThe requested URL was not found\n</BODY></HTML>\n');
}

export async function httpd(args: string[], io: CommandIo, sh: ShellAccess): Promise<number> {
  let port = 80, home = sh.cwd, foreground = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-f') foreground = true;
    else if (a === '-p') port = Number((args[++i] ?? '').split(':').pop());
    else if (a === '-h') home = posix.resolve(sh.cwd, args[++i] ?? '.');
    else if (/^-[vfi]+$/.test(a)) foreground ||= a.includes('f');
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) { await io.write(2, `httpd: invalid port\n`); return 1; }
  if (!sh.host.listen) { await io.write(2, 'httpd: bind: Cannot assign requested address\n'); return 1; }
  const files = sh.host.files;
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://pod').pathname);
    let file = posix.join(home, path);
    if (path.endsWith('/')) file = posix.join(file, 'index.html');
    const body = files.get(file);
    if (body === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return notFound(res);
    const data = Buffer.from(body, 'utf8');
    res.writeHead(200, { 'Content-Type': types[posix.extname(file)] ?? 'application/octet-stream', 'Content-Length': data.length, Connection: 'close' });
    res.end(req.method === 'HEAD' ? undefined : data);
  });
  let listener;
  try {
    listener = await sh.host.listen(port, socket => server.emit('connection', socket));
  } catch (err) {
    await io.write(2, `httpd: ${(err as Error).message}\n`);
    return 1;
  }
  if (!foreground) return 0;
  try {
    return (await sh.host.daemon()) ? 0 : 143;
  } finally {
    listener.close();
    server.close();
  }
}
