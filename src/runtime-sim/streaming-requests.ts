// The requests CRI Exec, Attach and PortForward hand out URLs for, as containerd's streaming
// server keeps them: each under a random single-use token, dropped if unused within a minute,
// so a URL is good for one connection and soon after it was asked for.

import { randomBytes } from 'node:crypto';

export type StreamingRequest =
  | { kind: 'exec'; containerId: string; cmd: string[]; stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean }
  | { kind: 'attach'; containerId: string; stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean }
  | { kind: 'portforward'; podSandboxId: string };

const ttlMs = 60_000;

export class StreamingRequests {
  readonly #waiting = new Map<string, { request: StreamingRequest; timer: NodeJS.Timeout }>();
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /** the URL the client connects to for `request` */
  add(request: StreamingRequest): string {
    // base64url of 6 random bytes, as containerd's tokens are 8 characters
    const token = randomBytes(6).toString('base64url');
    const timer = setTimeout(() => this.#waiting.delete(token), ttlMs);
    timer.unref();
    this.#waiting.set(token, { request, timer });
    return `${this.baseUrl}/${request.kind}/${token}`;
  }

  /** the request behind a token, which is then used up */
  take(token: string): StreamingRequest | undefined {
    const w = this.#waiting.get(token);
    if (!w) return undefined;
    clearTimeout(w.timer);
    this.#waiting.delete(token);
    return w.request;
  }
}
