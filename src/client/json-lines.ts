// Watch streams are one JSON document per line, arriving in chunks that split lines anywhere.

/** a chunk consumer that calls onLine for every complete, non-empty line */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let buf = '';
  return chunk => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.trim()) onLine(line);
    }
  };
}
