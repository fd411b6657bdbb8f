// Each table's insert body in TabSeparated (platform/tab-separated.ts's format, byte for byte). The
// large tables have writers of their own: fields read by name rather than through the column list
// (a keyed read per field was the generic writer's main cost), the escaping scan only on the free-text
// columns, and one plain latin1 copy into bytes (every field is ASCII or, free text, written as its UTF-8 bytes).
// A transaction's address rows share everything but the address, so that part is built once. Transaction
// records are bytes, written escaped straight into the body (the generic writer takes no bytes).
import { toTabSeparated, tsvField, type TsvValue } from '../platform/tab-separated.js';
import { FREE_TEXT_COLUMNS, VIEW_COLUMNS, VIEW_TABLES, type AccountWriteRow, type TableRows, type ViewTable } from './projections/rows.js';

const orNull = (v: string | null): string => (v === null ? '\\N' : v);

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * A free-text field (err, memo), escaped, with any non-ASCII text as its UTF-8 bytes one per character:
 * every body then stays a one-byte string, written out by a plain latin1 copy with the bytes UTF-8 would
 * give. (A single wide character, a memo's emoji, made the whole body two bytes per character: twice the
 * memory to flatten and a slower encoding.)
 */
function freeText(v: string | null): string {
  const f = tsvField(v);
  return NON_ASCII.test(f) ? Buffer.from(f, 'utf8').toString('latin1') : f;
}

const LF = 0x0a;
const BACKSLASH = 0x5c;
/** Slot (20 digits), position (10), signature (base58 of 64 bytes, at most 88) and three tabs, rounded up. */
const MAX_LINE_START = 128;

/**
 * Bytes as a TabSeparated string field: backslash, tab, line feed and carriage return escaped (\\ \t \n \r),
 * every other byte as it is (ClickHouse's String holds bytes). Returns the offset after the last byte written.
 */
export function writeEscapedBytes(out: Buffer, at: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === BACKSLASH || b === 0x09 || b === LF || b === 0x0d) {
      out[at++] = BACKSLASH;
      out[at++] = b === BACKSLASH ? BACKSLASH : b === 0x09 ? 0x74 : b === LF ? 0x6e : 0x72;
    } else {
      out[at++] = b;
    }
  }
  return at;
}

/** Every field is ASCII (base58, base64, decimal digits) or went through freeText. */
const bytesOf = (s: string): Buffer => Buffer.from(s, 'latin1');

type Writer<T extends ViewTable> = (rows: readonly TableRows[T][]) => Buffer;

/** account_writes and its owner-keyed copies (006_program_accounts.sql): one row shape, one column list. */
function accountWriteLines(rows: readonly AccountWriteRow[]): Buffer {
  let s = '';
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    s += `${r.pubkey}\t${r.slot}\t${r.write_version}\t${r.owner}\t${r.lamports}\t${r.executable ? '1' : '0'}\t${r.rent_epoch}\t${r.space}\t${r.data}\n`;
  }
  return bytesOf(s);
}

const WRITERS: { [T in ViewTable]?: Writer<T> } = {
  transactions: (rows) => {
    let s = '';
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      s += `${r.signature}\t${r.slot}\t${r.position}\t${freeText(r.err)}\t${freeText(r.memo)}\t${orNull(r.block_time)}\t${r.is_vote ? '1' : '0'}\t${r.fee}\n`;
    }
    return bytesOf(s);
  },
  signatures_by_address: (rows) => {
    let s = '';
    let prev: TableRows['signatures_by_address'] | undefined;
    let rest = '';
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      // Rows of one transaction are adjacent and share these values (the same strings).
      if (
        prev === undefined ||
        r.signature !== prev.signature ||
        r.slot !== prev.slot ||
        r.position !== prev.position ||
        r.err !== prev.err ||
        r.memo !== prev.memo ||
        r.block_time !== prev.block_time
      ) {
        rest = `\t${r.slot}\t${r.position}\t${r.signature}\t${freeText(r.err)}\t${freeText(r.memo)}\t${orNull(r.block_time)}\n`;
        prev = r;
      }
      s += r.address + rest;
    }
    return bytesOf(s);
  },
  account_writes: accountWriteLines,
  // The same rows, keyed by owner (006_program_accounts.sql).
  program_accounts: accountWriteLines,
  program_account_changes: accountWriteLines,
  owner_writes: (rows) => {
    let s = '';
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      s += `${r.pubkey}\t${r.slot}\t${r.write_version}\t${r.owner}\n`;
    }
    return bytesOf(s);
  },
  transaction_index: (rows) => {
    let s = '';
    for (let i = 0; i < rows.length; i++) s += `${rows[i]!.signature}\t${rows[i]!.slot}\t${rows[i]!.position}\n`;
    return bytesOf(s);
  },
  transaction_records: (rows) => {
    let size = 0;
    for (let i = 0; i < rows.length; i++) size += MAX_LINE_START + 2 * rows[i]!.record.length;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      at += out.write(`${r.slot}\t${r.position}\t${r.signature}\t`, at, 'latin1');
      at = writeEscapedBytes(out, at, r.record);
      out[at++] = LF;
    }
    return out.subarray(0, at);
  },
};

const PLAIN_COLUMNS = Object.fromEntries(
  VIEW_TABLES.map((t) => [t, new Set<string>((VIEW_COLUMNS[t] as readonly string[]).filter((c) => !FREE_TEXT_COLUMNS.has(c)))]),
) as unknown as Record<ViewTable, ReadonlySet<string>>;

/** The TabSeparated insert body of `rows` for `table`, columns as VIEW_COLUMNS lists them. */
export function tabSeparatedRows<T extends ViewTable>(table: T, rows: readonly TableRows[T][]): Buffer {
  const own = WRITERS[table];
  if (own !== undefined) return own(rows);
  return toTabSeparated(rows as unknown as Record<string, TsvValue>[], VIEW_COLUMNS[table] as readonly string[], PLAIN_COLUMNS[table]);
}

/** Whether two row lists hold the same row objects in the same order (then their text is the same). */
export function sameRows(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
