// A minimal ustar writer: regular files, directories (names ending in "/") and symbolic links, names split into prefix and name
// when longer than 100 bytes, as POSIX allows.

export interface TarEntry {
  name: string;
  data: Buffer | string;
  /** seconds since the epoch */
  mtime: number;
  mode?: number;
  /** a symbolic link to this target (`data` is then empty) */
  linkTo?: string;
}

const block = 512;

export function tarArchive(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = e.linkTo !== undefined || e.name.endsWith('/') ? Buffer.alloc(0) : typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    parts.push(header(e, data.length), data, Buffer.alloc((block - (data.length % block)) % block));
  }
  // the end of an archive is two zero blocks
  parts.push(Buffer.alloc(2 * block));
  return Buffer.concat(parts);
}

function header(e: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(block);
  const [prefix, name] = splitName(e.name);
  h.write(name, 0, 100, 'utf8');
  const dir = e.name.endsWith('/');
  octal(h, 100, 8, e.mode ?? (e.linkTo !== undefined ? 0o777 : dir ? 0o755 : 0o644));
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, Math.floor(e.mtime));
  h.fill(' ', 148, 156);
  h.write(e.linkTo !== undefined ? '2' : dir ? '5' : '0', 156, 1, 'ascii');
  if (e.linkTo !== undefined) h.write(e.linkTo, 157, 100, 'utf8');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write('root', 265, 32, 'ascii');
  h.write('root', 297, 32, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return h;
}

function octal(h: Buffer, at: number, width: number, value: number): void {
  h.write(value.toString(8).padStart(width - 1, '0') + '\0', at, width, 'ascii');
}

function splitName(full: string): [string, string] {
  if (Buffer.byteLength(full) <= 100) return ['', full];
  for (let i = full.lastIndexOf('/'); i > 0; i = full.lastIndexOf('/', i - 1)) {
    const prefix = full.slice(0, i), name = full.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name) return [prefix, name];
  }
  throw new Error(`tar: name too long: ${full}`);
}
