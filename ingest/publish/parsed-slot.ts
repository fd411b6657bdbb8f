// A slot's SubscribeParsed updates, built once by the ingest when the slot is whole (docs/decisions.md, Issue 20:
// "the parsed topic"): the framer feeds it every event of the open slot and publishes what `take` returns before
// the slot's end marker. Each pump.fun/PumpSwap transaction with content (a decoded instruction or event; failed ones
// too, the request filters decide) is joined with the writes it made itself (by signature: its bonding curve and
// its pool), so no commitment level, replay or batch cut can pair it with another trade's write. Beside the update
// go what the request filters read (schemas/pumpfun/parsed-facts.ts), so the api never decodes it. Pure.
import type { AccountEvent, ChainEvent, TransactionEvent } from '../../schemas/codec.js';
import { ParsedFacts, type ParsedTransactionEvent } from '../../schemas/gen/events.js';
import { encodeParsed } from '../../schemas/pumpfun/encode-parsed.js';
import { PUMP_PROGRAMS } from '../../schemas/pumpfun/decoder.js';
import { parsedFactsOf } from '../../schemas/pumpfun/parsed-facts.js';
import { scanParsedTransaction, type UndecodedAt } from '../../schemas/pumpfun/parsed-scan.js';
import { encodeMessage } from '../../schemas/proto-writer.js';

const EMPTY = Buffer.alloc(0);
const id = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');
const owned = (owner: Uint8Array): boolean => PUMP_PROGRAMS.some((p) => p.programIdBytes.equals(owner));

export class ParsedSlot {
  private txs: TransactionEvent[] = [];
  /** Writes of accounts either program owns, by `<signature><pubkey>` (latin1 ids). */
  private writes = new Map<string, AccountEvent>();

  /** `onUndecoded`: told of each instruction or event no loaded table decodes (the ingest counts them). */
  constructor(private readonly onUndecoded: (u: UndecodedAt) => void = () => {}) {}

  /** One event of the open slot (any kind; the ones that matter are kept). */
  add(e: ChainEvent): void {
    if (e.kind === 'transactions') this.txs.push(e.event);
    else if (e.kind === 'accounts' && e.event.txnSignature && e.event.txnSignature.length > 0 && owned(e.event.owner))
      this.writes.set(id(e.event.txnSignature) + id(e.event.pubkey), e.event);
  }

  /** The slot's parsed records in its transactions' order; the slot starts empty again. */
  take(): ParsedTransactionEvent[] {
    const out: ParsedTransactionEvent[] = [];
    for (const tx of this.txs) {
      const scan = scanParsedTransaction(tx);
      for (const u of scan.undecoded) this.onUndecoded(u);
      if (scan.instructions.length === 0 && scan.events.length === 0) continue;
      const signature = tx.signatures[0] ?? EMPTY;
      const sig = id(signature);
      const curve = scan.curve ? this.writes.get(sig + id(scan.curve)) : undefined;
      const pool = scan.pool ? this.writes.get(sig + id(scan.pool)) : undefined;
      out.push({
        slot: tx.slot,
        index: tx.index,
        signature,
        update: encodeParsed(tx, scan, curve, pool),
        failed: scan.failed,
        hasInstruction: scan.instructions.length > 0,
        facts: encodeMessage(ParsedFacts, parsedFactsOf(tx, scan)),
      });
    }
    this.txs = [];
    this.writes.clear();
    return out;
  }
}
