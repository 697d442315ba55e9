// A small push-to-pull queue: values pushed by a socket's event handlers, read with
// `for await` by whoever consumes the session (terminal sizes, forwarded connections).

export class AsyncQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiting: Array<(r: IteratorResult<T>) => void> = [];
  #ended = false;

  push(value: T): void {
    if (this.#ended) return;
    const w = this.#waiting.shift();
    if (w) w({ value, done: false });
    else this.#items.push(value);
  }

  end(): void {
    this.#ended = true;
    for (const w of this.#waiting.splice(0)) w({ value: undefined, done: true });
  }

  get ended(): boolean {
    return this.#ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#items.length) return Promise.resolve({ value: this.#items.shift()!, done: false });
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise(resolve => this.#waiting.push(resolve));
      },
      return: () => {
        this.end();
        this.#items.length = 0; // the consumer is gone: what it did not take is dropped
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
