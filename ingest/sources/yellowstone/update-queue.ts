// A bounded queue from several producers to one consumer (pure, no clock): `push` resolves once the item is in
// (the producer waits while the queue is full: backpressure reaches each upstream's reader), `take` resolves
// with the next item or undefined once closed; `close` releases every waiter (items still held by waiting
// producers are dropped: nobody reads them any more).
export class UpdateQueue<T> {
  private readonly items: T[] = [];
  private readonly takers: ((v: T | undefined) => void)[] = [];
  private readonly waiting: (() => void)[] = [];
  private closed = false;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.items.length;
  }

  async push(v: T): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const taker = this.takers.shift();
      if (taker) return taker(v);
      if (this.items.length < this.capacity) {
        this.items.push(v);
        return;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  take(): Promise<T | undefined> {
    // Either way one waiting producer may go on: into the freed place, or straight to this consumer.
    this.waiting.shift()?.();
    if (this.items.length > 0) return Promise.resolve(this.items.shift()!);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.takers.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const t of this.takers.splice(0)) t(undefined);
    for (const w of this.waiting.splice(0)) w();
  }
}
