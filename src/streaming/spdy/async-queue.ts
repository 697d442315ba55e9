// Items handed from event callbacks to one async iterator: what arrives before the consumer asks
// waits in order; ending the queue finishes the iteration once what is waiting has been taken.

export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private ended = false;

  push(item: T): void {
    if (this.ended) return;
    const w = this.waiting;
    if (w) { this.waiting = undefined; w({ value: item, done: false }); } else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    const w = this.waiting;
    if (w && this.items.length === 0) { this.waiting = undefined; w({ value: undefined, done: true }); }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise(resolve => { this.waiting = resolve; });
      },
      return: () => {
        this.end();
        this.items.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
