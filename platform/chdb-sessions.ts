// Several embedded ClickHouse (chdb) sessions on one data folder behind the one Connection @clickhouse/client
// takes. chdb runs the queries of a session one at a time, in arrival order: measured (chdb 3.4), a `SELECT 1` waited
// 9.1 s behind a 9.2 s query on the same session and took 15 ms on another session of the same folder, whose
// engine it shares. With one session (the default) every call of the process waits for the one before it: the
// projector's inserts behind the api's reads and the reads behind the inserts. `--clickhouse-sessions` N lets N run
// at once, each call going to the session with the fewest calls in flight; on 2 cores the soak measured no gain with
// 4 sessions, or with the projector on a session of its own (bench/README.md "Soak"): more is for machines with
// cores to spare.
import type { Readable } from 'node:stream';
import {
  createChdbConnection,
  type ChdbConnection,
  type ConnBaseQueryParams,
  type ConnCommandResult,
  type ConnExecParams,
  type ConnExecResult,
  type ConnInsertParams,
  type ConnInsertResult,
  type ConnPingParams,
  type ConnPingResult,
  type ConnQueryResult,
  type Connection,
} from 'chdb/connection';

type RawInsert = Parameters<ChdbConnection['chdb']['rawInsert']>[0];

interface Slot {
  connection: ChdbConnection;
  /** Calls handed to this session and not answered yet. */
  inFlight: number;
}

export class ChdbSessions implements Connection<Readable> {
  private readonly slots: Slot[];

  constructor(path: string, sessions: number) {
    if (!Number.isInteger(sessions) || sessions < 1) throw new Error(`chdb sessions: need a whole number of at least 1 (got ${sessions})`);
    this.slots = Array.from({ length: sessions }, () => ({ connection: createChdbConnection({ path }), inFlight: 0 }));
  }

  private async on<T>(call: (c: ChdbConnection) => Promise<T>): Promise<T> {
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.inFlight < slot.inFlight) slot = s;
    slot.inFlight++;
    try {
      return await call(slot.connection);
    } finally {
      slot.inFlight--;
    }
  }

  query(params: ConnBaseQueryParams): Promise<ConnQueryResult<Readable>> {
    return this.on((c) => c.query(params));
  }

  exec(params: ConnExecParams<Readable>): Promise<ConnExecResult<Readable>> {
    return this.on((c) => c.exec(params));
  }

  command(params: ConnBaseQueryParams): Promise<ConnCommandResult> {
    return this.on((c) => c.command(params));
  }

  insert(params: ConnInsertParams<Readable>): Promise<ConnInsertResult> {
    return this.on((c) => c.insert(params));
  }

  /** chdb's insert of raw bytes (no copy into an SQL string), on the least busy session. */
  async rawInsert(params: RawInsert): Promise<void> {
    await this.on((c) => c.chdb.rawInsert(params));
  }

  ping(params: ConnPingParams): Promise<ConnPingResult> {
    return this.on((c) => c.ping(params));
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.connection.close()));
  }
}
