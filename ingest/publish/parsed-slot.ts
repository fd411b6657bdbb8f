// A slot's SubscribeParsed updates, built once by the ingest when the slot is whole (docs/decisions.md, Issue 20:
// "One stream at 50,000/s needs the parsed updates built upstream"). WIP of the parsed topic: the framer feeds it
// every event of the open slot and takes the updates before the slot's end marker. Each pump.fun/PumpSwap
// transaction with content (a decoded instruction or event, failed ones too: the request filters decide) is joined
// with the writes it made itself (by signature: its bonding curve and its pool), so no commitment gate or batch cut
// can pair it with another trade's write. Pure.
import type { AccountEvent, ChainEvent, TransactionEvent } from '../../schemas/codec.js';
import { encodeParsed } from '../../schemas/pumpfun/encode-parsed.js';
import { PUMP_PROGRAMS } from '../../schemas/pumpfun/decoder.js';
import { scanParsedTransaction, type ParsedScan } from '../../schemas/pumpfun/parsed-scan.js';

export interface ParsedSlotUpdate {
  readonly tx: TransactionEvent;
  readonly scan: ParsedScan;
  /** The encoded SubscribeUpdateParsedTransaction. */
  readonly bytes: Buffer;
}

const id = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');
const owned = (owner: Uint8Array): boolean => PUMP_PROGRAMS.some((p) => p.programIdBytes.equals(owner));

export class ParsedSlot {
  private txs: TransactionEvent[] = [];
  /** Writes of accounts either program owns, by `<signature><pubkey>` (latin1 ids). */
  private writes = new Map<string, AccountEvent>();

  /** One event of the open slot (any kind; the ones that matter are kept). */
  add(e: ChainEvent): void {
    if (e.kind === 'transactions') this.txs.push(e.event);
    else if (e.kind === 'accounts' && e.event.txnSignature && e.event.txnSignature.length > 0 && owned(e.event.owner))
      this.writes.set(id(e.event.txnSignature) + id(e.event.pubkey), e.event);
  }

  /** The slot's updates in its transactions' order; the slot starts empty again. */
  take(): ParsedSlotUpdate[] {
    const out: ParsedSlotUpdate[] = [];
    for (const tx of this.txs) {
      const scan = scanParsedTransaction(tx);
      if (scan.instructions.length === 0 && scan.events.length === 0) continue;
      const sig = tx.signatures[0] ? id(tx.signatures[0]) : undefined;
      const curve = sig !== undefined && scan.curve ? this.writes.get(sig + id(scan.curve)) : undefined;
      const pool = sig !== undefined && scan.pool ? this.writes.get(sig + id(scan.pool)) : undefined;
      out.push({ tx, scan, bytes: encodeParsed(tx, scan, curve, pool) });
    }
    this.txs = [];
    this.writes.clear();
    return out;
  }
}
