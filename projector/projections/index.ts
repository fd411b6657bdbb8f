// One entry point for every event kind: decoded event in, rows out. Pure.
import type { EventOf, RecordEvent } from '../../schemas/codec.js';
import { projectAccount } from './accounts.js';
import { blockDetailRows, transactionBodyRows } from './bodies.js';
import { projectEpoch } from './epochs.js';
import { blockhashRows, tokenDelegateRows, tokenMintRows, tokenOwnerRows } from './lookups.js';
import { rejected, type Projection } from './result.js';
import { appendRows, emptyRows, type Rows } from './rows.js';
import { projectSlot } from './slots.js';
import { tokenBalanceChangeRows } from './token-balance-changes.js';
import { projectTransaction } from './transactions.js';

export type { Projection } from './result.js';

/** `raw`: the record value the event was decoded from, when at hand (stored as the transaction's body).
 * Every table is present in the rows (empty when the event adds none). */
export function project(e: RecordEvent, raw?: Buffer): Projection {
  const rows = emptyRows();
  const reason = projectInto(rows, e, raw);
  return reason === undefined ? { ok: true, rows } : rejected(reason);
}

/**
 * The runner's path: appends the event's rows to `into`, each to its table, and returns undefined; or
 * returns why the event cannot be projected, having appended nothing. Each kind names the tables it adds
 * to: no rows object per event and no pass over every view table per event (with the three tables of
 * 003 those two cost the projector ~8% of its thread, bench/README.md).
 */
export function projectInto(into: Rows, e: RecordEvent, raw?: Buffer): string | undefined {
  switch (e.kind) {
    case 'transactions':
      return transactionInto(into, e.event, raw);
    case 'accounts':
      return accountInto(into, e.event);
    case 'slots':
      return slotInto(into, e.event);
    case 'epochs': {
      const p = projectEpoch(e.event);
      if (!p.ok) return p.reason;
      appendRows(into, p.rows);
      return undefined;
    }
    case 'entries':
    case 'parsed':
      // No view of their own: the projector reads these topics for their replay index (slot_offsets) only.
      return undefined;
  }
}

function transactionInto(into: Rows, event: EventOf<'transactions'>, raw: Buffer | undefined): string | undefined {
  const p = projectTransaction(event);
  if (!p.ok) return p.reason;
  const tx = p.rows.transactions![0]!;
  // Both projections are checked before anything is appended: a rejected event adds no rows.
  const changes = tokenBalanceChangeRows(event, {
    slot: tx.slot,
    position: tx.position,
    signature: tx.signature,
    err: tx.err,
    memo: tx.memo,
    block_time: tx.block_time,
  });
  if (!changes.ok) return changes.reason;
  into.transactions.push(tx);
  pushAll(into.signatures_by_address, p.rows.signatures_by_address!);
  // The whole record and the signature index row (004_transaction_records.sql, 003_transaction_bodies.sql).
  const { body, index } = transactionBodyRows(event, tx.signature, raw);
  into.transaction_records.push(body);
  into.transaction_index.push(index);
  // The token-account history of getTransactionsForAddress (007_address_history.sql).
  pushAll(into.token_balance_changes, changes.rows.token_balance_changes!);
  return undefined;
}

function accountInto(into: Rows, event: EventOf<'accounts'>): string | undefined {
  const p = projectAccount(event);
  if (!p.ok) return p.reason;
  const w = p.rows.account_writes![0]!;
  into.account_writes.push(w);
  // Its owner alone, for the ownership check of the paged program reads (011_owner_writes.sql): the same row.
  into.owner_writes.push(w);
  // The same row in the owner-first orders of the paged program reads (006_program_accounts.sql).
  into.program_accounts.push(w);
  into.program_account_changes.push(w);
  // The wallet index row (keys as the accounts view stored them).
  pushAll(into.token_accounts_by_owner, tokenOwnerRows(event, w.pubkey, w.owner));
  // The mint and delegate index rows (008_token_account_keys.sql).
  pushAll(into.token_accounts_by_mint, tokenMintRows(event, w.pubkey, w.owner));
  pushAll(into.token_accounts_by_delegate, tokenDelegateRows(event, w.pubkey, w.owner));
  return undefined;
}

function slotInto(into: Rows, event: EventOf<'slots'>): string | undefined {
  const p = projectSlot(event);
  if (!p.ok) return p.reason;
  pushAll(into.slot_status, p.rows.slot_status!);
  pushAll(into.blocks, p.rows.blocks!);
  pushAll(into.blockhashes, blockhashRows(event));
  pushAll(into.block_details, blockDetailRows(event));
  return undefined;
}

function pushAll<T>(into: T[], from: readonly T[]): void {
  for (let i = 0; i < from.length; i++) into.push(from[i]!);
}

/** The slot a record belongs to for replay (an epoch record belongs to the epoch's first slot). */
export function slotOf(e: RecordEvent): bigint {
  switch (e.kind) {
    case 'transactions':
    case 'accounts':
    case 'slots':
    case 'entries':
    case 'parsed':
      return e.event.slot;
    case 'epochs':
      return e.event.firstSlot;
  }
}
