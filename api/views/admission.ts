// Admission control for the ClickHouse queries of JSON-RPC methods and PubSub's signature look-ups: one client
// must not stall the views for everyone (issue 18, item 9). The embedded engine (chdb) runs the queries of a
// session one after another in arrival order (the process has `clickhouseSessions` of them, platform/chdb-sessions.ts),
// so whatever is handed to it beyond its free sessions waits behind everything handed before. Hence:
// - at most `maxRunning` queries are handed to ClickHouse at once; the rest wait here, where a waiting query can
//   still be cancelled (its subscription gone) without ever reaching the engine;
// - waiting queries are taken round-robin across clients, so a client with 500 queued queries delays another
//   client's query by at most one query per client, not by 500;
// - a client may have at most `maxPerClient` queries admitted (running or waiting); one more is refused at once
//   with -32429 naming the limit;
// - the cheap methods (getSlot, getBlockHeight, getHealth, getVersion...) answer from the views-state cache,
//   whose one refresh query does not pass through here: it waits at most for the `maxRunning` queries already
//   handed to the engine.
// Invariants: `running` ≤ maxRunning; `admitted.get(c)` = running + waiting queries of client c (no entry at 0);
// `rotation` holds exactly the clients with a non-empty queue in `waiting`.
import { RpcError } from '../solana-json/errors.js';
import { queryAdmissions } from './metrics.js';

export interface AdmissionOptions {
  /** Queries handed to ClickHouse at once, process-wide (JSON-RPC and PubSub look-ups together). */
  maxRunning: number;
  /** Queries one client (an HTTP remote address, a PubSub connection) may have admitted: running or waiting. */
  maxPerClient: number;
}

export const DEFAULT_ADMISSION: AdmissionOptions = { maxRunning: 2, maxPerClient: 128 };

/** -32429 (HTTP 429's number, outside Agave's -32001.. range): the client is over its share. */
export const TOO_MANY_QUERIES = -32429;

export const tooManyQueries = (maxPerClient: number): RpcError =>
  new RpcError(
    TOO_MANY_QUERIES,
    `Too many requests: at most ${maxPerClient} queries in flight per client (rpcMaxQueriesPerClient); wait for answers before sending more`,
  );

/** Frees the place of an admitted query once it is done (idempotent). */
export type Release = () => void;

interface Waiter {
  client: string;
  start(): void;
}

export interface AdmissionStats {
  /** Queries admitted now (running or waiting). */
  admitted: number;
  running: number;
  /** Since start: queries that reached ClickHouse, waited and were cancelled, were refused. */
  run: number;
  cancelled: number;
  refused: number;
}

export class QueryAdmission {
  private running = 0;
  private readonly admitted = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly rotation: string[] = [];
  private counts = { run: 0, cancelled: 0, refused: 0 };

  constructor(readonly options: AdmissionOptions = DEFAULT_ADMISSION) {
    if (!(options.maxRunning >= 1 && options.maxPerClient >= 1)) {
      throw new Error(
        `query admission: maxRunning and maxPerClient must be at least 1, got ${options.maxRunning} and ${options.maxPerClient}`,
      );
    }
  }

  /**
   * Admits one query of `client`: throws -32429 at once (synchronously) when the client is over its share;
   * otherwise resolves, when the query may run, with its Release. `signal` aborted while waiting: the place is
   * freed and the promise rejects with the signal's reason (the query never reaches ClickHouse).
   */
  slot(client: string, signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    const n = this.admitted.get(client) ?? 0;
    if (n >= this.options.maxPerClient) {
      this.counts.refused++;
      queryAdmissions.inc({ outcome: 'refused' });
      throw tooManyQueries(this.options.maxPerClient);
    }
    this.admitted.set(client, n + 1);
    if (this.running < this.options.maxRunning) return Promise.resolve(this.start(client));
    return new Promise<Release>((resolve, reject) => {
      const w: Waiter = {
        client,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.start(client));
        },
      };
      const onAbort = (): void => {
        this.dequeue(w);
        this.leave(client);
        this.counts.cancelled++;
        queryAdmissions.inc({ outcome: 'cancelled' });
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.enqueue(w);
    });
  }

  /** Runs `task` as one admitted query of `client` (see `slot`). */
  async run<T>(client: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.slot(client, signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  stats(): AdmissionStats {
    let admitted = 0;
    for (const n of this.admitted.values()) admitted += n;
    return { admitted, running: this.running, ...this.counts };
  }

  private start(client: string): Release {
    this.running++;
    this.counts.run++;
    queryAdmissions.inc({ outcome: 'run' });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running--;
      this.leave(client);
      this.next();
    };
  }

  private leave(client: string): void {
    const n = (this.admitted.get(client) ?? 1) - 1;
    if (n === 0) this.admitted.delete(client);
    else this.admitted.set(client, n);
  }

  private enqueue(w: Waiter): void {
    const q = this.waiting.get(w.client);
    if (q) q.push(w);
    else {
      this.waiting.set(w.client, [w]);
      this.rotation.push(w.client);
    }
  }

  private dequeue(w: Waiter): void {
    const q = this.waiting.get(w.client);
    if (!q) return;
    const i = q.indexOf(w);
    if (i >= 0) q.splice(i, 1);
    if (q.length === 0) this.forget(w.client);
  }

  private forget(client: string): void {
    this.waiting.delete(client);
    const i = this.rotation.indexOf(client);
    if (i >= 0) this.rotation.splice(i, 1);
  }

  /** Starts the next waiting query, taking clients in turn: the first client's first query, then it goes last. */
  private next(): void {
    while (this.running < this.options.maxRunning && this.rotation.length > 0) {
      const client = this.rotation.shift()!;
      const q = this.waiting.get(client)!;
      const w = q.shift()!;
      if (q.length === 0) this.waiting.delete(client);
      else this.rotation.push(client);
      w.start();
    }
  }
}
