// A watch as a stream of events: the response body is one JSON object per line,
// `{"type": ..., "object": ...}`, arriving in chunks that may split lines anywhere.

import { apiErrorFromResponse } from './api-error.ts';
import { lineSplitter } from './json-lines.ts';
import type { Transport } from './transport.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
export interface WatchEvent<T = any> { type: WatchEventType; object: T }

export interface WatchHandle { stop(): void }

/**
 * Streams events to onEvent until stop() or the end of the stream. onError is called once when
 * the stream ends without stop(): with the failure (an ApiError for a non-200 response), or with
 * undefined when the server closed the watch cleanly (its timeout ran out).
 */
export function openWatch(transport: Transport, path: string, onEvent: (e: WatchEvent) => void, onError: (err?: Error) => void, accept = 'application/json'): WatchHandle {
  let done = false;
  const finish = (err?: Error) => {
    if (done) return;
    done = true;
    req.destroy();
    onError(err);
  };
  const req = transport.stream('GET', path, { accept }, res => {
    if (res.statusCode !== 200) {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => finish(apiErrorFromResponse(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', err => finish(err));
      return;
    }
    res.setEncoding('utf8');
    const feed = lineSplitter(line => {
      if (done) return;
      let e: WatchEvent;
      try { e = JSON.parse(line); } catch { return finish(new Error(`watch ${path}: undecodable event ${JSON.stringify(line.slice(0, 200))}`)); }
      onEvent(e);
    });
    res.on('data', (chunk: string) => feed(chunk));
    res.on('end', () => finish());
    res.on('error', err => finish(err));
    res.on('close', () => finish(res.complete ? undefined : new Error(`watch ${path}: connection closed`)));
  });
  req.on('error', err => finish(err));
  req.end();
  return { stop() { done = true; req.destroy(); } };
}
