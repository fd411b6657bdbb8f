// Snapshot rows as account records (issue 23, item 1): the accounts view's snapshot statement
// (api/views/account-snapshot.ts) answers in RowBinary, and each row is written straight into the bytes of the
// event model's account write (schemas/events.proto AccountEvent, slot S, is_startup) with its field table, by
// schemas/account-record.ts: the same scan a record read from Kafka has. From there the snapshot takes the live
// updates' path: matching works on the scan, stream.Stream re-frames the record's bytes (schemas/reframe-stream.ts),
// and the other transports
// decode it when they first ask for `event`. No JSON, no hex or base64 text, no object per field: a snapshot of
// millions of accounts spent most of its api CPU parsing JSON rows and encoding objects.
//
// RowBinary (ClickHouse's native row format): String = LEB128 length + bytes; UInt64 = 8 bytes little-endian;
// Bool = 1 byte. A chunk may end inside a row (a server's HTTP body is cut anywhere): what is left waits for the
// next chunk.
import { AccountColumns, AccountRecordWriter } from '../../schemas/account-record.js';
import { ByteError, ByteReader } from '../../schemas/byte-reader.js';
import { AccountEvent } from '../../schemas/gen/events.js';
import type { AccountScan } from '../../schemas/scan.js';

/** The columns each row holds, in order (the statement's SELECT list). */
export const SNAPSHOT_ROW_COLUMNS = ['pubkey', 'owner', 'lamports', 'executable', 'rent_epoch', 'data', 'write_version'] as const;

/** An account write read from the snapshot: its scan now, its decoded event on first use. */
export class SnapshotRecord {
  readonly kind = 'account';
  readonly snapshot = true;
  private decoded: AccountEvent | undefined;
  constructor(readonly scan: AccountScan) {}
  get slot(): bigint {
    return this.scan.slot;
  }
  get event(): AccountEvent {
    return (this.decoded ??= AccountEvent.decode(this.scan.bytes));
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Decodes a snapshot's RowBinary stream, chunk by chunk, into account records at one slot, one record at a time:
 * `push` a chunk, then `next` until it answers undefined. One at a time because a record is garbage once delivered:
 * a chunk's 8,192 records decoded up front all outlived the young generation's collections (promoted, then
 * collected by full ones: a third of the main thread's time). Not reentrant: one per snapshot.
 */
export class SnapshotRowDecoder {
  private buf: Buffer = EMPTY;
  private pos = 0;
  private readonly reader = new ByteReader();
  private readonly columns = new AccountColumns();
  private readonly writer: AccountRecordWriter;

  constructor(readonly slot: bigint) {
    this.writer = new AccountRecordWriter(slot);
  }

  /** The next chunk, after what the one before left unfinished (its rows must have been taken with `next`). */
  push(chunk: Buffer): void {
    // What is left is a copy: the chunk's memory is not held for a few bytes.
    this.buf = this.pos < this.buf.length ? Buffer.concat([this.buf.subarray(this.pos), chunk]) : chunk;
    this.pos = 0;
  }

  /** The next complete row of what was pushed, or undefined when none is left whole (the rest waits for a chunk). */
  next(): SnapshotRecord | undefined {
    if (this.pos >= this.buf.length) return undefined;
    try {
      this.row(this.buf, this.pos);
    } catch (err) {
      if (!(err instanceof ByteError)) throw err;
      if (err.kind === 'truncated') return undefined;
      throw new Error(`snapshot row: ${err.message}`, { cause: err });
    }
    this.pos = this.reader.pos;
    return new SnapshotRecord(this.writer.write(this.columns));
  }

  /** The stream ended: throws when it ended inside a row. */
  end(): void {
    const left = this.buf.length - this.pos;
    if (left > 0) throw new Error(`snapshot rows: the result ended inside a row (${left} bytes left over)`);
  }

  /** Reads the row at `pos` into the columns (RowBinary: String = LEB128 length + bytes, UInt64 = 8 bytes LE, Bool =
   * 1 byte); throws ByteError `truncated` when it is not all there. */
  private row(b: Buffer, pos: number): void {
    const r = this.reader.reset(b, pos);
    const c = this.columns;
    c.src = b;
    c.pubkeyStart = r.need(r.leb32('pubkey length'), 'pubkey');
    c.pubkeyEnd = r.pos;
    c.ownerStart = r.need(r.leb32('owner length'), 'owner');
    c.ownerEnd = r.pos;
    c.lamportsLo = r.u32('lamports');
    c.lamportsHi = r.u32('lamports');
    c.executable = r.u8('executable') !== 0;
    c.rentEpochLo = r.u32('rent_epoch');
    c.rentEpochHi = r.u32('rent_epoch');
    c.dataStart = r.need(r.leb32('data length'), 'data');
    c.dataEnd = r.pos;
    c.writeVersionLo = r.u32('write_version');
    c.writeVersionHi = r.u32('write_version');
  }
}
