// SubscribeParsed's update built once, upstream (issue 20: one parsed stream at 50,000 updates/s). The api
// used to decode every pump.fun / PumpSwap transaction record, build its proto messages, join it with its
// bonding-curve / pool writes and encode it, ~140 µs of api CPU per update to one stream; the framer now does
// that once per transaction, in the slot batch that holds the transaction and its writes, and the record
// carries the encoded SubscribeUpdateParsedTransaction (`parsed_update`) and what the request filters read
// (`parsed_summary`), so the api forwards bytes (api/grpc/stream/subscribe-parsed.ts). Same Kafka record, so
// exactly-once, replay, commitment and cursors come with the transaction at no extra latency.
// The join is the api's (api/pumpfun/join.ts): the write of the transaction's curve (pool) carrying its
// signature, of an account either program owns (the writes a SubscribeParsed stream registers for); a failed
// transaction writes none. When a write the join needs is not in the batch (a source that sends writes in a
// later batch of the slot, or none: the rpc source), `parsed_update` stays absent and the api joins as before.
// Pure and deterministic (the framer's records are compared byte for byte).
import { encodeParsed } from '../../api/grpc/stream/encode.js';
import { PUMP_PROGRAMS } from '../../api/pumpfun/decoder.js';
import { scanParsedTransaction, type ParsedScan } from '../../api/pumpfun/parsed-scan.js';
import type { ChainEvent } from '../../schemas/codec.js';
import { encodeMessage } from '../../schemas/proto-writer.js';
import { ParsedSummary, type AccountEvent, type ParsedItem, type TransactionEvent } from '../../schemas/gen/events.js';

const PROGRAM_IDS: readonly Buffer[] = PUMP_PROGRAMS.map((p) => p.programIdBytes);
const EMPTY = Buffer.alloc(0);
const id = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');

/** Whether `key` is either program's id (the first two bytes decide almost every key at once: this runs for
 * every key of every transaction the ingest publishes). */
function isPumpProgram(key: Uint8Array): boolean {
  for (const p of PROGRAM_IDS) if (key[0] === p[0] && key[1] === p[1] && p.equals(key)) return true;
  return false;
}

/** Whether the transaction names either program among its keys (what SubscribeParsed's registration matches). */
function mentionsPump(tx: TransactionEvent): boolean {
  for (const k of tx.accountKeys) if (isPumpProgram(k)) return true;
  for (const k of tx.loadedWritable) if (isPumpProgram(k)) return true;
  for (const k of tx.loadedReadonly) if (isPumpProgram(k)) return true;
  return false;
}

/** The filters' view of a parsed transaction (parsed-filter.ts `matchParsed` reads exactly these). */
export function parsedSummaryOf(tx: TransactionEvent, scan: ParsedScan): ParsedSummary {
  const signers = tx.accountKeys.slice(0, Math.min(tx.numRequiredSignatures, tx.accountKeys.length)).map((k) => Buffer.from(k));
  const instructions: ParsedItem[] = scan.instructions.map((x, i) => ({
    name: scan.instructionNames[i]!,
    program: x.program,
    index: x.index,
    inner: x.inner,
    keys: x.accounts,
  }));
  const events: ParsedItem[] = scan.events.map((e, i) => ({
    name: scan.eventNames[i]!,
    program: e.program,
    index: e.index,
    inner: false,
    keys: scan.eventKeys[i]!,
  }));
  return { failed: scan.failed, signers, instructions, events };
}

export interface ParsedFields {
  parsedUpdate: Buffer;
  /** An encoded ParsedSummary. */
  parsedSummary: Buffer | undefined;
}

/**
 * The parsed fields of each transaction of one slot batch that SubscribeParsed would see, by event: an empty
 * `parsedUpdate` when it names a program but has nothing to send; none when it names neither, or a write its
 * join needs is not among `events`.
 */
export function parsedUpdates(events: readonly ChainEvent[]): Map<TransactionEvent, ParsedFields> {
  const out = new Map<TransactionEvent, ParsedFields>();
  let writes: Map<string, AccountEvent> | undefined;
  for (const e of events) {
    if (e.kind !== 'transactions' || e.event.isVote || !mentionsPump(e.event)) continue;
    const tx = e.event;
    const scan = scanParsedTransaction(tx);
    if (scan.instructions.length === 0 && scan.events.length === 0) {
      out.set(tx, { parsedUpdate: EMPTY, parsedSummary: undefined });
      continue;
    }
    let curve: AccountEvent | undefined;
    let pool: AccountEvent | undefined;
    const sig = tx.signatures[0];
    if (sig !== undefined && !scan.failed && (scan.curve !== undefined || scan.pool !== undefined)) {
      writes ??= writesOf(events);
      const s = id(sig);
      curve = scan.curve && writes.get(s + id(scan.curve));
      pool = scan.pool && writes.get(s + id(scan.pool));
      if ((scan.curve !== undefined && curve === undefined) || (scan.pool !== undefined && pool === undefined)) continue;
    }
    out.set(tx, {
      parsedUpdate: encodeParsed(tx, scan, curve, pool),
      parsedSummary: encodeMessage(ParsedSummary, parsedSummaryOf(tx, scan)),
    });
  }
  return out;
}

/** The batch's writes of pump-owned accounts by (txn signature, pubkey): the last one of each (as the join keeps). */
function writesOf(events: readonly ChainEvent[]): Map<string, AccountEvent> {
  const m = new Map<string, AccountEvent>();
  for (const e of events) {
    if (e.kind !== 'accounts') continue;
    const a = e.event;
    if (a.txnSignature === undefined || a.txnSignature.length === 0 || !isPumpProgram(a.owner)) continue;
    m.set(id(a.txnSignature) + id(a.pubkey), a);
  }
  return m;
}
