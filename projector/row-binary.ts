// Each table's insert body in ClickHouse's RowBinary format: the same rows and columns as projector/tsv.ts's
// TabSeparated, value for value (projector/row-binary.int.test.ts reads both back from chdb and compares).
// RowBinary (https://clickhouse.com/docs/interfaces/formats/RowBinary): fixed-width numbers little-endian, a String
// as its byte length (unsigned LEB128) and bytes, Nullable as one byte (1 = NULL) before the value, an Array as its
// length (LEB128) and its elements, Bool as one byte. LowCardinality(String) is written as a String.
// Measured against TabSeparated in bench/projector-formats.ts (bench/README.md, "Insert formats").
import { ByteWriter } from '../schemas/byte-writer.js';
import {
  VIEW_COLUMNS,
  type AccountWriteRow,
  type SignatureByAddressRow,
  type TableRows,
  type TransactionIndexRow,
  type ViewTable,
} from './projections/rows.js';

/** The ClickHouse types of the columns each insert lists (schemas/clickhouse/*.sql), in RowBinary's terms. */
export type ColumnType =
  | 'String' // ASCII text: base58, base64, decimal digits, a topic name
  | 'Text' // free text (err, memo): written as its UTF-8 bytes
  | 'Bytes' // a Buffer, as it is
  | 'UInt8'
  | 'UInt32'
  | 'UInt64' // a decimal string
  | 'Int64' // a decimal string
  | 'Bool'
  | 'Nullable(Text)'
  | 'Nullable(Int64)'
  | 'Nullable(UInt64)'
  | 'Array(String)'
  | 'Array(UInt32)';

const TWO_32 = 2 ** 32;
/** Decimal strings this short are below 2^53: Number() reads them exactly. */
const EXACT_DIGITS = 15;

/** RowBinary's field writers over the product's one byte writer (schemas/byte-writer.ts). Rows keep u64s as decimal
 * strings (nothing past 2^53 rounded), written without a BigInt when they fit a double exactly. */
export class RowBinaryOut {
  private readonly w: ByteWriter;

  constructor(sizeHint: number) {
    this.w = new ByteWriter(Math.max(256, sizeHint));
  }

  /** The bytes written so far (a view of the buffer, not a copy). */
  bytes(): Buffer {
    return this.w.done();
  }

  u8(v: number): void {
    this.w.u8(v);
  }

  bool(v: boolean): void {
    this.w.bool(v);
  }

  u32(v: number): void {
    if (!Number.isInteger(v) || v < 0 || v >= TWO_32) throw new Error(`RowBinary: ${v} is not a UInt32`);
    this.w.u32(v);
  }

  /** A UInt64 held as a decimal string. */
  u64(s: string): void {
    const n = s.length <= EXACT_DIGITS ? Number(s) : NaN;
    if (n >= 0 && Number.isInteger(n) && s !== '') {
      const lo = n % TWO_32;
      this.w.u32(lo).u32((n - lo) / TWO_32);
    } else {
      this.w.u64(decimal(s, 'UInt64'));
    }
  }

  i64(s: string): void {
    const n = s.length <= EXACT_DIGITS ? Number(s) : NaN;
    if (Number.isInteger(n) && s !== '') {
      const hi = Math.floor(n / TWO_32);
      this.w.u32(n - hi * TWO_32).i32(hi);
    } else {
      this.w.i64(decimal(s, 'Int64'));
    }
  }

  /** Text of one-byte characters (base58, base64, digits, topic names) as latin1: the bytes tsv.ts writes for them. */
  ascii(s: string): void {
    this.w.leb128(s.length).latin1(s);
  }

  /** Free text as its UTF-8 bytes. */
  text(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.w.leb128(n).utf8(s, n);
  }

  nullableText(s: string | null | undefined): void {
    if (s === null || s === undefined) return this.u8(1);
    this.u8(0);
    this.text(s);
  }

  nullableI64(s: string | null | undefined): void {
    if (s === null || s === undefined) return this.u8(1);
    this.u8(0);
    this.i64(s);
  }

  nullableU64(s: string | null | undefined): void {
    if (s === null || s === undefined) return this.u8(1);
    this.u8(0);
    this.u64(s);
  }

  bytesField(b: Uint8Array): void {
    this.w.leb128(b.length).bytes(b);
  }

  arrayLength(n: number): void {
    this.w.leb128(n);
  }
}

function decimal(s: string, type: string): bigint {
  if (!/^-?[0-9]+$/.test(s)) throw new Error(`RowBinary: ${JSON.stringify(s)} is not a decimal ${type}`);
  return BigInt(s);
}

/** Each column type's value writer (the generic path, for the small tables). */
const WRITE_VALUE: { readonly [K in ColumnType]: (o: RowBinaryOut, v: never) => void } = {
  String: (o, v: string) => o.ascii(v),
  Text: (o, v: string) => o.text(v),
  Bytes: (o, v: Uint8Array) => o.bytesField(v),
  UInt8: (o, v: number) => o.u8(v),
  UInt32: (o, v: number) => o.u32(v),
  UInt64: (o, v: string) => o.u64(v),
  Int64: (o, v: string) => o.i64(v),
  Bool: (o, v: boolean) => o.bool(v),
  'Nullable(Text)': (o, v: string | null) => o.nullableText(v),
  'Nullable(Int64)': (o, v: string | null) => o.nullableI64(v),
  'Nullable(UInt64)': (o, v: string | null) => o.nullableU64(v),
  'Array(String)': (o, v: readonly string[]) => {
    o.arrayLength(v.length);
    for (const s of v) o.ascii(s);
  },
  'Array(UInt32)': (o, v: readonly number[]) => {
    o.arrayLength(v.length);
    for (const n of v) o.u32(n);
  },
};

const ACCOUNT_WRITE: Record<keyof AccountWriteRow, ColumnType> = {
  pubkey: 'String',
  slot: 'UInt64',
  write_version: 'UInt64',
  owner: 'String',
  lamports: 'UInt64',
  executable: 'Bool',
  rent_epoch: 'UInt64',
  space: 'UInt32',
  data: 'String',
};

const SIGNATURE_ROW: Record<keyof Omit<SignatureByAddressRow, 'address'>, ColumnType> = {
  slot: 'UInt64',
  position: 'UInt32',
  signature: 'String',
  err: 'Nullable(Text)',
  memo: 'Nullable(Text)',
  block_time: 'Nullable(Int64)',
};

/** Every inserted column's type, per table (the int test checks them against the tables' own). */
export const COLUMN_TYPES: { readonly [T in ViewTable]: Readonly<Record<keyof TableRows[T], ColumnType>> } = {
  transactions: {
    signature: 'String',
    slot: 'UInt64',
    position: 'UInt32',
    err: 'Nullable(Text)',
    memo: 'Nullable(Text)',
    block_time: 'Nullable(Int64)',
    is_vote: 'Bool',
    fee: 'UInt64',
  },
  signatures_by_address: { address: 'String', ...SIGNATURE_ROW },
  blocks: {
    slot: 'UInt64',
    parent_slot: 'UInt64',
    blockhash: 'String',
    block_height: 'UInt64',
    block_time: 'Nullable(Int64)',
    leader: 'String',
    transaction_count: 'UInt32',
    vote_transaction_count: 'UInt32',
  },
  slot_status: { slot: 'UInt64', status: 'UInt8' },
  account_writes: ACCOUNT_WRITE,
  owner_writes: ACCOUNT_WRITE,
  program_accounts: ACCOUNT_WRITE,
  program_account_changes: ACCOUNT_WRITE,
  epochs: {
    epoch: 'UInt64',
    first_slot: 'UInt64',
    slots_per_epoch: 'UInt64',
    slots_per_leader: 'UInt32',
    identities: 'Array(String)',
    schedule: 'Array(UInt32)',
  },
  slot_offsets: { topic: 'String', partition: 'UInt32', slot: 'UInt64', first_offset: 'UInt64', last_offset: 'UInt64' },
  token_accounts_by_owner: { owner: 'String', program: 'String', mint: 'String', pubkey: 'String' },
  blockhashes: { blockhash: 'String', slot: 'UInt64', block_height: 'UInt64' },
  transaction_index: { signature: 'String', slot: 'UInt64', position: 'UInt32' },
  transaction_records: { slot: 'UInt64', position: 'UInt32', signature: 'String', record: 'Bytes' },
  block_details: { slot: 'UInt64', previous_blockhash: 'String', rewards: 'String', num_partitions: 'Nullable(UInt64)' },
  token_balance_changes: { account: 'String', ...SIGNATURE_ROW },
  token_accounts_by_mint: { mint: 'String', program: 'String', pubkey: 'String' },
  token_accounts_by_delegate: { delegate: 'String', program: 'String', mint: 'String', pubkey: 'String' },
};

type Writer<T extends ViewTable> = (o: RowBinaryOut, rows: readonly TableRows[T][]) => void;

/** owner_writes' columns, and account_writes' first four. */
function accountKey(o: RowBinaryOut, r: AccountWriteRow): void {
  o.ascii(r.pubkey);
  o.u64(r.slot);
  o.u64(r.write_version);
  o.ascii(r.owner);
}

/** account_writes and its owner-keyed copies (006_program_accounts.sql): one row shape, one column list. */
function accountWrites(o: RowBinaryOut, rows: readonly AccountWriteRow[]): void {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    accountKey(o, r);
    o.u64(r.lamports);
    o.bool(r.executable);
    o.u64(r.rent_epoch);
    o.u32(r.space);
    o.ascii(r.data);
  }
}

/** transaction_index's columns, and transactions' first three. */
function transactionKey(o: RowBinaryOut, r: TransactionIndexRow): void {
  o.ascii(r.signature);
  o.u64(r.slot);
  o.u32(r.position);
}

/** slot, position, signature: transaction_records' first three columns, and a signature row's after its key. */
function transactionAt(o: RowBinaryOut, r: TransactionIndexRow): void {
  o.u64(r.slot);
  o.u32(r.position);
  o.ascii(r.signature);
}

/** err, memo, block_time: what a transaction row and a signature row both carry after its position. */
function outcome(o: RowBinaryOut, r: Pick<SignatureByAddressRow, 'err' | 'memo' | 'block_time'>): void {
  o.nullableText(r.err);
  o.nullableText(r.memo);
  o.nullableI64(r.block_time);
}

/** A signature row after its key column (signatures_by_address, token_balance_changes). */
function signatureTail(o: RowBinaryOut, r: Omit<SignatureByAddressRow, 'address'>): void {
  transactionAt(o, r);
  outcome(o, r);
}

/** The large tables, fields read by name (a keyed read per field is the generic path's cost), each table's loop its
 * own (one shared loop calling a row writer per table cost ~20% more encode CPU: docs/decisions.md). */
const WRITERS: { [T in ViewTable]?: Writer<T> } = {
  transactions: (o, rows) => {
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      transactionKey(o, r);
      outcome(o, r);
      o.bool(r.is_vote);
      o.u64(r.fee);
    }
  },
  signatures_by_address: (o, rows) => {
    for (let i = 0; i < rows.length; i++) {
      o.ascii(rows[i]!.address);
      signatureTail(o, rows[i]!);
    }
  },
  token_balance_changes: (o, rows) => {
    for (let i = 0; i < rows.length; i++) {
      o.ascii(rows[i]!.account);
      signatureTail(o, rows[i]!);
    }
  },
  account_writes: accountWrites,
  program_accounts: accountWrites,
  program_account_changes: accountWrites,
  owner_writes: (o, rows) => {
    for (let i = 0; i < rows.length; i++) accountKey(o, rows[i]!);
  },
  transaction_index: (o, rows) => {
    for (let i = 0; i < rows.length; i++) transactionKey(o, rows[i]!);
  },
  transaction_records: (o, rows) => {
    for (let i = 0; i < rows.length; i++) {
      transactionAt(o, rows[i]!);
      o.bytesField(rows[i]!.record);
    }
  },
};

/** A first guess at a body's size (it grows when short). */
function sizeHint(table: ViewTable, rows: readonly unknown[]): number {
  if (table === 'transaction_records') {
    let n = 0;
    for (const r of rows as readonly TableRows['transaction_records'][]) n += 120 + r.record.length;
    return n;
  }
  // Account data (base64) runs to 5 KB a row (vote accounts): a batch of 20,000 such rows regrew its buffer from a
  // per-row guess three times, 40 MB at the last, and at 0.25x those allocations were 4% of the engine's main thread
  // an hour in (bench/README.md "Soak"). The sum of the data is known: one buffer of the right size (every table of
  // account write rows: account_writes, owner_writes, program_accounts, program_account_changes).
  if (COLUMN_TYPES[table] === ACCOUNT_WRITE) {
    let n = 0;
    for (const r of rows as readonly TableRows['account_writes'][]) n += 140 + r.data.length;
    return n;
  }
  return rows.length * (table.includes('account') ? 256 : 160);
}

/** The RowBinary insert body of `rows` for `table`, columns as VIEW_COLUMNS lists them (as tabSeparatedRows). */
export function rowBinaryRows<T extends ViewTable>(table: T, rows: readonly TableRows[T][]): Buffer {
  const o = new RowBinaryOut(sizeHint(table, rows));
  const own = WRITERS[table];
  if (own !== undefined) {
    own(o, rows);
    return o.bytes();
  }
  const types = COLUMN_TYPES[table] as Readonly<Record<string, ColumnType>>;
  const cols = VIEW_COLUMNS[table] as readonly string[];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as unknown as Record<string, unknown>;
    for (let c = 0; c < cols.length; c++) WRITE_VALUE[types[cols[c]!]!](o, r[cols[c]!] as never);
  }
  return o.bytes();
}

const CLICKHOUSE_TYPE: Record<ColumnType, string> = {
  String: 'String',
  Text: 'String',
  Bytes: 'String',
  UInt8: 'UInt8',
  UInt32: 'UInt32',
  UInt64: 'UInt64',
  Int64: 'Int64',
  Bool: 'Bool',
  'Nullable(Text)': 'Nullable(String)',
  'Nullable(Int64)': 'Nullable(Int64)',
  'Nullable(UInt64)': 'Nullable(UInt64)',
  'Array(String)': 'Array(String)',
  'Array(UInt32)': 'Array(UInt32)',
};

/** The ClickHouse type of each column `rowBinaryRows` writes for `table`, in order. */
export function rowBinaryTypes(table: ViewTable): string[] {
  const types = COLUMN_TYPES[table] as Readonly<Record<string, ColumnType>>;
  return (VIEW_COLUMNS[table] as readonly string[]).map((c) => CLICKHOUSE_TYPE[types[c]!]);
}
