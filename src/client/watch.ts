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
    req.close();
    onError(err);
  };
  const req = transport.stream('GET', path, { accept }, {
    onResponse({ statusCode, body }) {
      if (statusCode !== 200) {
        const chunks: Buffer[] = [];
        body.on('data', (c: Buffer) => chunks.push(c));
        body.on('end', () => finish(apiErrorFromResponse(statusCode, Buffer.concat(chunks).toString('utf8'))));
        body.on('error', err => finish(err));
        return;
      }
      body.setEncoding('utf8');
      const feed = lineSplitter(line => {
        if (done) return;
        let e: WatchEvent;
        try { e = JSON.parse(line); } catch { return finish(new Error(`watch ${path}: undecodable event ${JSON.stringify(line.slice(0, 200))}`)); }
        onEvent(e);
      });
      body.on('data', (chunk: string) => feed(chunk));
      // a clean end comes before the close; a close without one is a connection lost
      body.on('end', () => finish());
      body.on('error', err => finish(err));
      body.on('close', () => finish(new Error(`watch ${path}: connection closed`)));
    },
    onError: err => finish(err),
  });
  return { stop() { done = true; req.close(); } };
}
