// One entry point for every event kind: decoded event in, rows out. Pure.
import type { AccountEvent, ChainEvent, TransactionEvent } from '../../schemas/codec.js';
import { projectAccount } from './accounts.js';
import { blockDetailRows, transactionBodyRows } from './bodies.js';
import { projectEpoch } from './epochs.js';
import { blockhashRows, tokenOwnerRows, withRows } from './lookups.js';
import type { Projection } from './result.js';
import { projectSlot } from './slots.js';
import { projectTransaction } from './transactions.js';

export type { Projection } from './result.js';

/** `raw`: the record value the event was decoded from, when at hand (stored as the transaction's body). */
export function project(e: ChainEvent, raw?: Buffer): Projection {
  switch (e.kind) {
    case 'transactions':
      return transactionWithBody(e.event, raw);
    case 'accounts':
      return accountWithLookups(e.event);
    case 'slots':
      return withRows(projectSlot(e.event), { blockhashes: blockhashRows(e.event), block_details: blockDetailRows(e.event) });
    case 'epochs':
      return projectEpoch(e.event);
    case 'entries':
      // Entries feed no view yet (the projector does not read their topic); accepted, no rows.
      return { ok: true, rows: {} };
  }
}

/** The account write's views plus its wallet index row (keys as the accounts view stored them). */
function accountWithLookups(e: AccountEvent): Projection {
  const p = projectAccount(e);
  if (!p.ok) return p;
  const w = p.rows.account_writes![0]!;
  return withRows(p, { token_accounts_by_owner: tokenOwnerRows(e, w.pubkey, w.owner) });
}

/** The transaction's views plus its whole body and signature index row (003_transaction_bodies.sql). */
function transactionWithBody(e: TransactionEvent, raw: Buffer | undefined): Projection {
  const p = projectTransaction(e);
  if (!p.ok) return p;
  const { body, index } = transactionBodyRows(e, p.rows.transactions![0]!.signature, raw);
  return withRows(p, { transaction_bodies: [body], transaction_index: [index] });
}

/** The slot a record belongs to for replay (an epoch record belongs to the epoch's first slot). */
export function slotOf(e: ChainEvent): bigint {
  switch (e.kind) {
    case 'transactions':
    case 'accounts':
    case 'slots':
    case 'entries':
      return e.event.slot;
    case 'epochs':
      return e.event.firstSlot;
  }
}
