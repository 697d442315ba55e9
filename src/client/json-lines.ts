// Watch streams are one JSON document per line, arriving in chunks that split lines anywhere.

/** a chunk consumer that calls onLine for every complete, non-empty line */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let buf = '';
  return chunk => {
    buf += chunk;
    // cut the consumed part once per chunk, not once per line
    let start = 0;
    let i;
    while ((i = buf.indexOf('\n', start)) >= 0) {
      const line = buf.slice(start, i);
      start = i + 1;
      if (line.trim()) onLine(line);
    }
    if (start) buf = buf.slice(start);
  };
}
