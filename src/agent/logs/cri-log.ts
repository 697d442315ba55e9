// The CRI log format runtimes write: one record per line, `<RFC 3339 time> <stream> <tag>
// <content>`, where tag P marks a partial line continued by the next record and F a full one.
// Records become lines again here, each with its stream and the time of its first part. A
// container's last output may have no newline: the runtime writes it as a P record nothing
// continues, and it is a line all the same, shown without a newline as the kubelet shows it.

export interface LogLine {
  time: string;
  stream: 'stdout' | 'stderr';
  text: string;
  /** the output ended here without a newline */
  partial?: boolean;
}

export interface LogParser {
  /** feed bytes; complete lines come out */
  push(chunk: string): LogLine[];
  /** the end of the log: a partial line nothing continued, if any */
  end(): LogLine[];
}

export function criLogParser(): LogParser {
  let rest = '';
  let partial: LogLine | undefined;
  return {
    push(chunk) {
      rest += chunk;
      const out: LogLine[] = [];
      let nl: number;
      while ((nl = rest.indexOf('\n')) >= 0) {
        const record = rest.slice(0, nl);
        rest = rest.slice(nl + 1);
        const m = /^(\S+) (stdout|stderr) ([PF])(?:[^ ]*)? ?(.*)$/s.exec(record);
        if (!m) continue;
        const [, time, stream, tag, text] = m as unknown as [string, string, 'stdout' | 'stderr', string, string];
        if (partial && partial.stream === stream) partial.text += text;
        else partial = { time, stream, text };
        if (tag === 'F') { out.push(partial); partial = undefined; }
      }
      return out;
    },
    end() {
      const last = partial;
      partial = undefined;
      return last ? [{ ...last, partial: true }] : [];
    },
  };
}
