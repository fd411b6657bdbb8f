// What SubscribeParsed's request filters read of a parsed transaction (schemas/events.proto ParsedFacts): its
// signers, and each decoded instruction's and event's program, name, position and keys. The ingest writes them
// beside each parsed update (ingest/publish/parsed-slot.ts); the api matches requests on them without decoding the
// update (api/pumpfun/parsed-filter.ts). Pure.
import type { ParsedFacts, TransactionEvent } from '../gen/events.js';
import type { ParsedScan } from './parsed-scan.js';
import { tradeFactOf } from './trades.js';

/** The facts of a transaction and its parsed content. */
export function parsedFactsOf(tx: TransactionEvent, scan: ParsedScan): ParsedFacts {
  const n = Math.min(tx.numRequiredSignatures, tx.accountKeys.length);
  return {
    signers: tx.accountKeys.slice(0, n),
    instructions: scan.instructions.map((x, i) => ({
      program: x.program,
      name: scan.instructionNames[i]!,
      index: x.index,
      inner: x.inner,
      keys: x.accounts,
    })),
    events: scan.events.map((e, i) => ({
      program: e.program,
      name: scan.eventNames[i]!,
      index: e.index,
      inner: false,
      keys: scan.eventKeys[i]!,
    })),
    trades: scan.trades.map(tradeFactOf),
  };
}
