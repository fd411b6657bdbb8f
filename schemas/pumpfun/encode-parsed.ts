// SubscribeParsed's update for one transaction, encoded: the contract's bytes (proto/stream.proto
// SubscribeUpdateParsedTransaction) built from the transaction, its parsed content (parsed-scan.ts) and the
// curve/pool writes joined with it. Built once per transaction by the ingest (ingest/publish/parsed-slot.ts) into
// the parsed topic, whose records the api sends as they are (docs/decisions.md, Issue 20, "The parsed topic").
import { SubscribeUpdateParsedTransaction, type Event, type Instruction, type ParsedTrade } from '../../proto/gen/stream.js';
import { accountUpdateOf } from '../account-update.js';
import type { AccountEvent, TransactionEvent } from '../gen/events.js';
import { encodeMessage } from '../proto-writer.js';

const EMPTY = Buffer.alloc(0);

/** A complete SubscribeUpdateParsedTransaction. `account` is the bonding curve's write, or the pool's when
 * the transaction has no curve (so an old client sees it); `pool` is the pool's. */
export function encodeParsed(
  tx: TransactionEvent,
  scan: ParsedContent,
  curve: AccountEvent | undefined,
  pool: AccountEvent | undefined,
): Buffer {
  const poolUpdate = pool ? accountUpdateOf(pool) : undefined;
  return encodeMessage(SubscribeUpdateParsedTransaction, {
    signature: tx.signatures[0] ?? EMPTY,
    slot: tx.slot,
    account: curve ? accountUpdateOf(curve) : poolUpdate,
    recentBlockhash: tx.recentBlockhash,
    signatures: tx.signatures,
    instructions: scan.instructions,
    events: scan.events,
    programs: [...scan.programs],
    failed: scan.failed,
    err: scan.err,
    pool: poolUpdate,
    trades: scan.trades ?? [],
  });
}

/** What encodeParsed needs of a transaction's parsed content (parsed-scan.ts). */
export interface ParsedContent {
  readonly instructions: Instruction[];
  readonly events: Event[];
  readonly programs: readonly string[];
  readonly failed: boolean;
  readonly err: string | undefined;
  /** Issue 34: the trades (absent: none). */
  readonly trades?: ParsedTrade[];
}
