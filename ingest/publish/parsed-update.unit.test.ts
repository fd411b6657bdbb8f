import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PARSED_FILTER, factsOfSummary, matchParsed, type ParsedFilter } from '../../api/pumpfun/parsed-filter.js';
import { scanParsedTransaction } from '../../api/pumpfun/parsed-scan.js';
import { encodeParsed } from '../../api/grpc/stream/encode.js';
import { ParsedInstructionLevel, SubscribeUpdateParsedTransaction } from '../../proto/gen/stream.js';
import { decodeRecord, type ChainEvent } from '../../schemas/codec.js';
import { ParsedSummary, type AccountEvent, type TransactionEvent } from '../../schemas/gen/events.js';
import { topicNames } from '../../schemas/topics.js';
import { collect } from '../../test/support/sim/checks.js';
import type { SlotBatch } from '../source.js';
import { SlotFramer, type RecordKind } from './framer.js';
import { recordLimit } from './dead-letter.js';
import { parsedUpdates } from './parsed-update.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('parsedUpdates: SubscribeParsed updates built in the slot batch', () => {
  let batches: SlotBatch[] = [];
  beforeAll(async () => {
    batches = await collect({ seed: 7, maxSlots: 6, fast: true, tps: 1000 });
  }, 120_000);

  const txsOf = (events: readonly ChainEvent[]): TransactionEvent[] => events.flatMap((e) => (e.kind === 'transactions' ? [e.event] : []));

  it("each update is the api's own encoding with the batch's curve/pool write, and the summary matches as the content does", () => {
    const filters: ParsedFilter[] = [
      DEFAULT_PARSED_FILTER,
      { ...DEFAULT_PARSED_FILTER, includeFailed: true, level: ParsedInstructionLevel.INNER_ONLY },
      { ...DEFAULT_PARSED_FILTER, eventKinds: new Set(['TradeEvent']), level: ParsedInstructionLevel.TOP_LEVEL_ONLY },
      { ...DEFAULT_PARSED_FILTER, programs: new Set(['pump']), instructionKinds: new Set(['buy_v2', 'sell']) },
    ];
    let built = 0;
    let joined = 0;
    for (const b of batches) {
      const fields = parsedUpdates(b.events);
      const writes = b.events.flatMap((e) => (e.kind === 'accounts' ? [e.event] : []));
      for (const tx of txsOf(b.events)) {
        const f = fields.get(tx);
        const scan = scanParsedTransaction(tx);
        if (scan.instructions.length === 0 && scan.events.length === 0) {
          if (f !== undefined) expect(f.parsedUpdate.length).toBe(0);
          continue;
        }
        expect(f, hex(tx.signatures[0]!)).toBeDefined();
        const own = (key: Buffer | undefined): AccountEvent | undefined =>
          key && !scan.failed
            ? writes.findLast((w) => hex(w.pubkey) === hex(key) && hex(w.txnSignature ?? Buffer.alloc(0)) === hex(tx.signatures[0]!))
            : undefined;
        const curve = own(scan.curve);
        const pool = own(scan.pool);
        if (curve || pool) joined++;
        expect(f!.parsedUpdate.equals(encodeParsed(tx, scan, curve, pool))).toBe(true);
        expect(hex(SubscribeUpdateParsedTransaction.decode(f!.parsedUpdate).signature)).toBe(hex(tx.signatures[0]!));
        const { facts, signers } = factsOfSummary(ParsedSummary.decode(f!.parsedSummary!));
        for (const filter of filters) expect(matchParsed(filter, facts, signers)).toBe(matchParsed(filter, scan, tx));
        built++;
      }
    }
    expect(built).toBeGreaterThan(300);
    expect(joined).toBeGreaterThan(300);
  });

  it('builds none when a write the join needs is not in the batch (the api joins), nor for transactions naming neither program', () => {
    const b = batches.find((x) => [...parsedUpdates(x.events).values()].some((f) => f.parsedUpdate.length > 0))!;
    const withWrites = parsedUpdates(b.events);
    const noWrites = parsedUpdates(b.events.filter((e) => e.kind !== 'accounts'));
    let needed = 0;
    for (const tx of txsOf(b.events)) {
      const scan = scanParsedTransaction(tx);
      const needsWrite = !scan.failed && (scan.curve !== undefined || scan.pool !== undefined) && withWrites.get(tx)?.parsedUpdate.length;
      if (needsWrite) {
        needed++;
        expect(noWrites.get(tx)).toBeUndefined();
      }
    }
    expect(needed).toBeGreaterThan(0);
    const other = txsOf(b.events).find((t) => !withWrites.has(t));
    expect(other).toBeDefined();
  });

  it('the framer writes them into the transaction records (parsed_update 40, parsed_summary 41); off on request', () => {
    const kinds: RecordKind[] = ['transactions', 'accounts', 'slots', 'entries', 'epochs'];
    const partitions = new Map(kinds.map((k) => [k, 2]));
    const decoded = (parsed: boolean): TransactionEvent[] => {
      const framer = new SlotFramer(partitions, topicNames('t'), { parsedUpdates: parsed });
      return batches
        .flatMap((b) => framer.frame(b))
        .filter((r) => r.kind === 'transactions')
        .map((r) => {
          const d = decodeRecord('transactions', r.value);
          if (!d.ok || d.value.kind !== 'transactions') throw new Error('undecodable');
          return d.value.event;
        });
    };
    const on = decoded(true);
    const withUpdate = on.filter((t) => t.parsedUpdate !== undefined && t.parsedUpdate.length > 0);
    expect(withUpdate.length).toBeGreaterThan(300);
    for (const t of withUpdate) expect(t.parsedSummary).toBeDefined();
    expect(decoded(false).some((t) => t.parsedUpdate !== undefined)).toBe(false);
  });

  it('leaves the prebuilt update out of a transaction it would push over the topic limit (never dead-lettered for it)', () => {
    const kinds: RecordKind[] = ['transactions', 'accounts', 'slots', 'entries', 'epochs'];
    const b = batches.find((x) => [...parsedUpdates(x.events).values()].some((f) => f.parsedUpdate.length > 0))!;
    const fields = parsedUpdates(b.events);
    const tx = txsOf(b.events).find((t) => (fields.get(t)?.parsedUpdate.length ?? 0) > 0)!;
    // Log text that brings the plain record to 100 bytes under the limit: with the update it would not fit.
    const plainSize = (t: TransactionEvent): number => {
      const r = new SlotFramer(new Map(kinds.map((k) => [k, 1])), topicNames('t'), { parsedUpdates: false }).frame({
        ...b,
        events: [{ kind: 'transactions', event: t }],
        partial: true,
      })[0]!;
      return r.key.length + r.value.length;
    };
    const pad = (n: number): TransactionEvent => ({ ...tx, logMessages: [...tx.logMessages, 'x'.repeat(n)] });
    let big = pad(recordLimit('transactions') - plainSize(tx) - 100 - 8);
    big = pad(recordLimit('transactions') - plainSize(tx) - 100 - 8 - (plainSize(big) - (recordLimit('transactions') - 100)));
    expect(recordLimit('transactions') - plainSize(big)).toBe(100);
    const events = b.events.map((e): ChainEvent =>
      e.kind === 'transactions' && e.event === tx ? { kind: 'transactions', event: big } : e,
    );
    const framer = new SlotFramer(new Map(kinds.map((k) => [k, 1])), topicNames('t'));
    const out = framer.frame({ ...b, events });
    const rec = out.find((r) => r.kind === 'transactions' && r.value.length > recordLimit('transactions') / 2)!;
    expect(rec.dead).toBeUndefined();
    const d = decodeRecord('transactions', rec.value);
    expect(d.ok && d.value.kind === 'transactions' && d.value.event.parsedUpdate === undefined).toBe(true);
  });
});
