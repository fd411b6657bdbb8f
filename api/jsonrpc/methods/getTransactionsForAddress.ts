// getTransactionsForAddress (Helius's provider method; spec/provider-methods.md section 3): an address's
// transactions, newest or oldest first, by block position (slot, transactionIndex), in pages resumed by a
// "slot:position" token, with slot, block-time, signature and status filters, and optionally the history of
// the SPL Token / Token-2022 accounts the address owns at the context slot. `signatures` items are
// getSignaturesForAddress's elements; `full` items are getTransaction's answers (its own encoder) plus
// transactionIndex. Reads: signatures_by_address (the address's own transactions, one key range read forwards
// or backwards), token_balance_changes (007: the token accounts' balance changes), token_accounts_by_owner
// verified against account_writes (which token accounts the address owns), transaction_records (bodies).
// Transactions of slots marked skipped (a lost fork) are left out, as getTransaction leaves them out.
import { TupleParam } from '@clickhouse/client';
import { isTokenAccountData, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../../schemas/programs.js';
import { transactionHistoryNotAvailable } from '../../solana-json/errors.js';
import { decodeBody } from '../../solana-json/transactions.js';
import { queryRows, u64 } from '../../views/query.js';
import {
  after,
  formatPaginationToken,
  isEmpty,
  narrowBySignatures,
  narrowBySlots,
  upToHead,
  type HistoryRange,
  type SignatureBounds,
} from '../history-range.js';
import { contextSlot, defineMethod, type MethodContext } from '../method.js';
import { parseGetTransactionsForAddress, type GetTransactionsForAddressParams } from '../transactions-for-address-params.js';
import { encodeConfirmedTransaction, needsBlockTime, readBlockTimes } from './getTransaction.js';
import { shapeSignature, withBlockTimes, type SignatureRow } from './getSignaturesForAddress.js';
import { checkTokenPosition, locateSignatures, type CursorContext } from '../signature-cursors.js';
import { newestWritesSql } from '../as-of.js';

const COLUMNS = 'signature, slot, position, err, memo, block_time';

// Rows stored without a block time (a transaction published before its block meta: a yellowstone source's pieces)
// are in a time range when their block is.
const BLOCKS_IN_TIME = `SELECT slot FROM {db:Identifier}.blocks
  WHERE slot >= {loSlot:UInt64} AND slot <= {hiSlot:UInt64} AND block_time >= {minTime:Int64} AND block_time <= {maxTime:Int64}`;

// The conditions every source shares: the page's range of block positions, the status and block-time filters.
const CONDITIONS = `
  slot >= {loSlot:UInt64} AND slot <= {hiSlot:UInt64}
  AND (slot > {loSlot:UInt64} OR position >= {loPos:Int64})
  AND (slot < {hiSlot:UInt64} OR position <= {hiPos:Int64})
  AND ({status:UInt8} = 0 OR ({status:UInt8} = 1 AND err IS NULL) OR ({status:UInt8} = 2 AND err IS NOT NULL))
  AND ({timeFiltered:Bool} = false OR (block_time >= {minTime:Int64} AND block_time <= {maxTime:Int64})
       OR (block_time IS NULL AND slot IN (${BLOCKS_IN_TIME})))`;

/**
 * The SQL of a window of candidates for a page, for an order and the sources it reads. Only constant fragments
 * are put together here (the direction and which sources); every value is a placeholder. Each source is read
 * in key order (address or account first, so `address = x` is one key range that ClickHouse reads forwards or
 * backwards and stops after `window` rows: read in order, a page costs the same at any depth of a history of
 * millions); the outer ORDER BY merges the union. No LIMIT BY here: it makes ClickHouse sort the whole range
 * (measured: ~10x slower on 100,000 rows); duplicates are dropped by the caller (pageOf).
 */
export function historySql(order: 'asc' | 'desc', sources: { tokenAccounts: boolean; balanceChanges: boolean }): string {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const tail = `ORDER BY slot ${dir}, position ${dir} LIMIT {window:UInt32}`;
  const parts = [`SELECT ${COLUMNS} FROM {db:Identifier}.signatures_by_address WHERE address = {address:String} AND ${CONDITIONS} ${tail}`];
  if (sources.tokenAccounts) {
    parts.push(
      `SELECT ${COLUMNS} FROM {db:Identifier}.signatures_by_address WHERE address IN {accounts:Array(String)} AND ${CONDITIONS} ${tail}`,
    );
  }
  if (sources.balanceChanges) {
    parts.push(
      `SELECT ${COLUMNS} FROM {db:Identifier}.token_balance_changes WHERE account IN {accounts:Array(String)} AND ${CONDITIONS} ${tail}`,
    );
  }
  if (parts.length === 1) return parts[0]!;
  return `SELECT ${COLUMNS} FROM (${parts.map((p) => `(${p})`).join(' UNION ALL ')}) ${tail}`;
}

/** The slots among a window's that are marked skipped (a lost fork): point reads of slot_status. */
export const SKIPPED_SQL = `SELECT DISTINCT slot FROM {db:Identifier}.slot_status WHERE slot IN {slots:Array(UInt64)} AND status = 3`;

/**
 * A window's rows (ordered) without the slots of a lost fork and with one row per block position (a row not yet
 * merged away, or a transaction found through several sources, comes more than once, adjacent). Pure.
 */
export function pageOf<R extends { slot: string; position: number }>(rows: readonly R[], skipped: ReadonlySet<string>): R[] {
  const out: R[] = [];
  for (const r of rows) {
    if (skipped.has(String(r.slot))) continue;
    const prev = out[out.length - 1];
    if (prev !== undefined && String(prev.slot) === String(r.slot) && Number(prev.position) === Number(r.position)) continue;
    out.push(r);
  }
  return out;
}

// The token accounts the address owns at the context slot: candidates from the wallet index, kept when their
// newest write at or below the slot still belongs to a token program, is open and holds the address at
// bytes 32..64 (getTokenAccountsByOwner's rule, over both token programs and every mint).
const OWNED_TOKEN_ACCOUNTS_SQL = `
SELECT pubkey, data
FROM (${newestWritesSql('(SELECT pubkey FROM {db:Identifier}.token_accounts_by_owner WHERE owner = {wallet:String})', 'pubkey, owner, lamports, data')}
)
WHERE owner IN ({token:String}, {token2022:String}) AND lamports > 0
  AND substring(base64Decode(data), 33, 32) = base58Decode({wallet:String})`;

export const RECORDS_SQL = `
SELECT slot, position, base64Encode(record) AS body FROM {db:Identifier}.transaction_records
WHERE slot IN {slots:Array(UInt64)} AND (slot, position) IN {keys:Array(Tuple(UInt64, UInt32))}
LIMIT 1 BY slot, position`;

const UNAVAILABLE = 'Signature information unavailable';
const STATUS_CODE = { any: 0, succeeded: 1, failed: 2 } as const;

async function ownedTokenAccounts(ctx: MethodContext, wallet: string, slot: bigint): Promise<string[]> {
  const rows = await queryRows<{ pubkey: string; data: string }>(ctx.ch, OWNED_TOKEN_ACCOUNTS_SQL, {
    db: ctx.db,
    wallet,
    slot,
    token: TOKEN_PROGRAM,
    token2022: TOKEN_2022_PROGRAM,
  });
  return rows.filter((r) => isTokenAccountData(Buffer.from(r.data, 'base64'))).map((r) => r.pubkey);
}

/**
 * filters.signature's transactions located (chronological bounds), and the token's position checked: a cursor the
 * request cannot see is -32020 (../signature-cursors.ts), never an empty page.
 */
async function locateCursors(c: CursorContext, p: GetTransactionsForAddressParams): Promise<SignatureBounds> {
  const named = Object.entries(p.signatures).filter((e): e is [keyof SignatureBounds, string] => e[1] !== undefined);
  const at = await locateSignatures(
    c,
    named.map((e) => e[1]),
  );
  if (p.after !== undefined) await checkTokenPosition(c, p.after);
  const out: SignatureBounds = {};
  named.forEach(([k], i) => (out[k] = at[i]!));
  return out;
}

/** The range a page may come from: head, filters, then the previous page's token. */
export function pageRange(head: bigint, p: GetTransactionsForAddressParams, signatures: SignatureBounds): HistoryRange {
  let r = narrowBySignatures(narrowBySlots(upToHead(head), p.slots), signatures);
  if (p.after !== undefined) r = after(r, p.after, p.order);
  return r;
}

async function fullItems(ctx: MethodContext, rows: readonly SignatureRow[], p: GetTransactionsForAddressParams): Promise<unknown[]> {
  if (rows.length === 0) return [];
  const keys = rows.map((r) => new TupleParam([u64(r.slot), Number(r.position)]));
  const bodies = await queryRows<{ slot: string; position: number; body: string }>(ctx.ch, RECORDS_SQL, {
    db: ctx.db,
    slots: [...new Set(rows.map((r) => u64(r.slot)))],
    keys,
  });
  const byKey = new Map(bodies.map((b) => [`${b.slot}:${b.position}`, b.body]));
  const events = rows.map((r) => {
    const body = byKey.get(`${r.slot}:${r.position}`);
    // The projector writes both from the same event in the same batch; only views filled before migration 003
    // lack bodies (getTransaction answers null for those): say so rather than leave the transaction out.
    if (body === undefined) {
      throw transactionHistoryNotAvailable(
        `transaction ${r.signature} (slot ${r.slot}, index ${r.position}) has no stored body; \`slotstream projector rebuild\` restores them`,
      );
    }
    return decodeBody(body);
  });
  const late = rows.filter((_, i) => needsBlockTime(events[i]!)).map((r) => u64(r.slot));
  const blockTimes = await readBlockTimes(ctx.ch, ctx.db, late);
  return rows.map((r, i) => ({
    transactionIndex: Number(r.position),
    ...encodeConfirmedTransaction(events[i]!, u64(r.slot), blockTimes, p),
  }));
}

/**
 * The first `wanted` rows of the page's range (fewer only at its end): one row past the page says whether another
 * page follows. The window leaves room for rows pageOf drops; when it drops so many that the page comes out short
 * while the window was full, a window four times larger is read.
 */
async function readWindow(ctx: MethodContext, sql: string, params: Record<string, unknown>, wanted: number): Promise<SignatureRow[]> {
  for (let window = 2 * wanted; ; window *= 4) {
    const raw = await queryRows<SignatureRow>(ctx.ch, sql, { ...params, window });
    const slots = [...new Set(raw.map((r) => u64(r.slot)))];
    const skipped = slots.length === 0 ? [] : await queryRows<{ slot: string }>(ctx.ch, SKIPPED_SQL, { db: ctx.db, slots });
    const rows = pageOf(raw, new Set(skipped.map((r) => String(r.slot))));
    if (rows.length >= wanted || raw.length < window) return rows.slice(0, wanted);
  }
}

export const getTransactionsForAddress = defineMethod<GetTransactionsForAddressParams>({
  name: 'getTransactionsForAddress',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTransactionsForAddress,
  run: async (ctx, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const cursors: CursorContext = { ch: ctx.ch, db: ctx.db, contextSlot: head, commitment: p.commitment, lostForkUnseen: true };
    const range = pageRange(head, p, await locateCursors(cursors, p));
    const noTime = p.blockTime.min !== undefined && p.blockTime.max !== undefined && p.blockTime.min > p.blockTime.max;
    if (isEmpty(range) || noTime) return { data: [], paginationToken: null };
    const accounts = p.tokenAccounts === 'none' ? [] : await ownedTokenAccounts(ctx, p.address, head);
    const sql = historySql(p.order, {
      tokenAccounts: p.tokenAccounts === 'all' && accounts.length > 0,
      balanceChanges: p.tokenAccounts === 'balanceChanged' && accounts.length > 0,
    });
    const timeFiltered = p.blockTime.min !== undefined || p.blockTime.max !== undefined;
    const params = {
      db: ctx.db,
      address: p.address,
      accounts,
      loSlot: range.lo.slot,
      loPos: range.lo.position,
      hiSlot: range.hi.slot,
      hiPos: range.hi.position,
      status: STATUS_CODE[p.status],
      timeFiltered,
      minTime: p.blockTime.min ?? -(2n ** 63n),
      maxTime: p.blockTime.max ?? 2n ** 63n - 1n,
    };
    const rows = await readWindow(ctx, sql, params, p.limit + 1);
    const page = rows.slice(0, p.limit);
    const last = page[page.length - 1];
    const paginationToken =
      rows.length > p.limit && last !== undefined ? formatPaginationToken(u64(last.slot), Number(last.position)) : null;
    const data =
      p.details === 'full'
        ? await fullItems(ctx, page, p)
        : (await withBlockTimes(ctx.ch, ctx.db, page)).map((r) => shapeSignature(r, ctx.state));
    return { data, paginationToken };
  },
});
