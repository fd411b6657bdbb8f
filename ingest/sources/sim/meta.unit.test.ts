// The simulator's transaction meta, entries and dead forks, checked against its own ledger.
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeRecord, SlotStatus, type AccountEvent, type SlotEvent } from '../../../schemas/codec.js';
import { Acct } from './accounts.js';
import { computeLimit } from './block.js';
import type { Ix } from './compile.js';
import { COMPUTE_BUDGET_PROGRAM, PUMP_IX, PUMP_PROGRAM, TOKEN_PROGRAM } from './programs.js';
import { collect, sharedChains } from '../../../test/support/sim/checks.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('simulator meta', () => {
  // One chain for the meta tests (the log test had one of its own: seed 2, 30 slots).
  const chains = sharedChains();
  afterAll(chains.clear);
  const chain = () => chains.get({ maxSlots: 40, seed: 5, tps: 400, fast: true });

  it('balances, token balances and account writes agree; pre minus post is the fee', async () => {
    const batches = await chain();
    let checked = 0;
    let tokenChecked = 0;
    for (const b of batches) {
      const writesBySig = new Map<string, AccountEvent[]>();
      for (const e of b.events) {
        if (e.kind !== 'accounts' || !e.event.txnSignature) continue;
        const k = hex(e.event.txnSignature);
        writesBySig.set(k, [...(writesBySig.get(k) ?? []), e.event]);
      }
      for (const e of b.events) {
        if (e.kind !== 'transactions') continue;
        const t = e.event;
        const keys = [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly];
        expect(t.preBalances).toHaveLength(keys.length);
        expect(t.postBalances).toHaveLength(keys.length);
        const sum = (xs: bigint[]): bigint => xs.reduce((a, x) => a + x, 0n);
        expect(sum(t.preBalances) - sum(t.postBalances)).toBe(t.fee);
        // Every write this transaction caused shows the post balance (and token amount) the meta names.
        for (const w of writesBySig.get(hex(t.signatures[0]!)) ?? []) {
          const i = keys.findIndex((k) => k.equals(w.pubkey));
          expect(t.postBalances[i]).toBe(w.lamports);
          checked++;
          const tb = t.postTokenBalances.find((x) => x.accountIndex === i);
          if (w.owner.equals(TOKEN_PROGRAM) && w.data.length === 165 && w.lamports > 0n) {
            expect(tb?.amount).toBe(w.data.readBigUInt64LE(64));
            expect(tb?.mint).toEqual(w.data.subarray(0, 32));
            tokenChecked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(tokenChecked).toBeGreaterThan(50);
  });

  it("logs in the validator's form; pump.fun buys carry their inner token transfer at stack height 2 and their event", async () => {
    const txs = (await chain()).flatMap((b) => b.events).flatMap((e) => (e.kind === 'transactions' ? [e.event] : []));
    const LINE = /^Program (\w+) (invoke \[[1-3]\]|success|failed: .+|consumed \d+ of \d+ compute units)$|^Program (log|data): /;
    let buys = 0;
    for (const t of txs) {
      for (const l of t.logMessages) expect(l).toMatch(LINE);
      const top = t.logMessages.filter((l) => l.endsWith('invoke [1]'));
      const done = t.err === undefined ? t.instructions.length : JSON.parse(t.err).InstructionError[0] + 1;
      expect(top).toHaveLength(done);
      expect(top[0]).toBe(`Program ${bs58.encode(t.accountKeys[t.instructions[0]!.programIdIndex]!)} invoke [1]`);
      expect(t.logMessages.at(-1)).toMatch(t.err === undefined ? / success$/ : / failed: /);
      expect(Number(t.computeUnitsConsumed)).toBeGreaterThan(0);
      expect(Number(t.computeUnitsConsumed)).toBeLessThanOrEqual(200_000 * t.instructions.length);
      const ix = t.instructions.findIndex(
        (x) => t.accountKeys[x.programIdIndex]!.equals(PUMP_PROGRAM) && x.data.subarray(0, 8).equals(PUMP_IX.buy),
      );
      if (ix < 0 || t.err !== undefined) continue;
      buys++;
      const inner = t.innerInstructions.find((g) => g.index === ix)!;
      const keys = [...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly];
      const transfer = inner.instructions[0]!;
      expect(keys[transfer.programIdIndex]).toEqual(TOKEN_PROGRAM);
      expect(transfer.stackHeight).toBe(2);
      expect(transfer.data[0]).toBe(3);
      expect(t.logMessages).toContain(`Program ${bs58.encode(TOKEN_PROGRAM)} invoke [2]`);
      // The tokens moved equal the buyer's token balance change.
      const dst = transfer.accounts[1]!;
      const pre = t.preTokenBalances.find((b) => b.accountIndex === dst)?.amount ?? 0n;
      const post = t.postTokenBalances.find((b) => b.accountIndex === dst)!.amount;
      expect(post - pre).toBe(transfer.data.readBigUInt64LE(1));
      // Its TradeEvent: logged as `Program data:`, then the program's self-CPI one level down.
      const event = inner.instructions.find((x) => keys[x.programIdIndex]!.equals(PUMP_PROGRAM))!;
      expect(event.stackHeight).toBe(2);
      expect(event.data.subarray(0, 8).toString('hex')).toBe('e445a52e51cb9a1d');
      expect(t.logMessages).toContain(`Program data: ${event.data.subarray(8).toString('base64')}`);
    }
    expect(buys).toBeGreaterThan(20);
  });

  it('computeLimit follows the compute-budget instruction, else 200,000 per instruction, at most 1.4M', () => {
    const other: Ix = { program: new Acct(TOKEN_PROGRAM), accounts: [], data: Buffer.alloc(0) };
    const limit = Buffer.alloc(5);
    limit[0] = 2;
    limit.writeUInt32LE(300_000, 1);
    expect(computeLimit([{ program: new Acct(COMPUTE_BUDGET_PROGRAM), accounts: [], data: limit }, other])).toBe(300_000);
    expect(computeLimit([other, other])).toBe(400_000);
    expect(computeLimit(Array.from({ length: 8 }, () => other))).toBe(1_400_000);
  });
});

describe('simulator entries and dead forks', () => {
  // Each chain built once for the four tests (eight builds before; the determinism check builds its own second).
  const chains = sharedChains();
  afterAll(chains.clear);
  const options = (deadRate: number, entries: boolean) => ({ maxSlots: 80, seed: 11, tps: 100, fast: true, entries, deadRate });
  const run = (deadRate = 0, entries = true) => chains.get(options(deadRate, entries));
  const bytes = (bs: Awaited<ReturnType<typeof run>>, keep: (kind: string) => boolean = () => true) =>
    Buffer.concat(bs.flatMap((b) => b.events.filter((e) => keep(e.kind)).map((e) => encodeRecord(e).value)));

  it('entries chain by sha256 from the parent blockhash to the blockhash and count the transactions', async () => {
    const batches = await run();
    let parentHash: Buffer | undefined;
    for (const b of batches) {
      const meta = b.events.find(
        (e): e is { kind: 'slots'; event: SlotEvent } => e.kind === 'slots' && e.event.slot === b.slot && e.event.block !== undefined,
      );
      if (!meta) continue;
      const block = meta.event.block!;
      const entries = b.events.flatMap((e) => (e.kind === 'entries' ? [e.event] : []));
      const txs = b.events.filter((e) => e.kind === 'transactions');
      expect(BigInt(entries.length)).toBe(block.entryCount);
      expect(entries.at(-1)!.hash).toEqual(block.blockhash);
      expect(block.executedTransactionCount).toBe(BigInt(txs.length));
      if (parentHash) expect(block.previousBlockhash).toEqual(parentHash);
      let prev = block.previousBlockhash;
      let next = 0n;
      entries.forEach((e, i) => {
        expect(e.index).toBe(BigInt(i));
        expect(e.startingTransactionIndex).toBe(next);
        next += e.executedTransactionCount;
        const h = createHash('sha256')
          .update(prev)
          .update(Buffer.from(new BigUint64Array([e.numHashes]).buffer));
        if (e.executedTransactionCount > 0n) {
          const mix = Buffer.alloc(16);
          mix.writeUInt32LE(Number(e.startingTransactionIndex), 0);
          mix.writeUInt32LE(Number(e.executedTransactionCount), 4);
          h.update(mix);
        }
        expect(e.hash).toEqual(h.digest());
        prev = e.hash;
      });
      expect(next).toBe(BigInt(block.transactionCount));
      expect(entries.filter((e) => e.executedTransactionCount === 0n)).toHaveLength(64);
      parentHash = block.blockhash;
    }
  });

  it('entries off removes the entries records and changes nothing else, with or without dead forks', async () => {
    for (const deadRate of [0, 0.15]) {
      const off = await run(deadRate, false);
      expect(off.some((b) => b.events.some((e) => e.kind === 'entries'))).toBe(false);
      expect(bytes(off).equals(bytes(await run(deadRate, true), (k) => k !== 'entries'))).toBe(true);
    }
  });

  it('deadRate 0 publishes no dead fork and no progress status', async () => {
    const statuses = (await run(0)).flatMap((b) => b.events.flatMap((e) => (e.kind === 'slots' ? [e.event.status] : [])));
    expect(statuses.every((s) => s <= SlotStatus.SLOT_STATUS_SKIPPED)).toBe(true);
  });

  it('dead forks: progress statuses, ticks, DEAD last; no block, no transaction; the next block skips them', async () => {
    const batches = await run(0.15);
    const again = await collect(options(0.15, true));
    expect(again.map((b) => b.events.map((e) => encodeRecord(e).value.toString('hex')).join())).toEqual(
      batches.map((b) => b.events.map((e) => encodeRecord(e).value.toString('hex')).join()),
    );
    const dead = new Set<bigint>();
    for (const b of batches) {
      const own = b.events.filter((e) => e.kind !== 'slots' || e.event.slot === b.slot);
      const last = own.at(-1)!;
      if (last.kind === 'slots' && last.event.status === SlotStatus.SLOT_STATUS_DEAD) {
        dead.add(b.slot);
        expect(last.event.deadError).toBe('InvalidBlock(TooFewTicks)');
        expect(own.map((e) => e.kind === 'slots' && e.event.status)).toContain(SlotStatus.SLOT_STATUS_CREATED_BANK);
        expect(own.some((e) => e.kind === 'transactions' || e.kind === 'accounts')).toBe(false);
        expect(own.some((e) => e.kind === 'slots' && e.event.block !== undefined)).toBe(false);
        for (const e of own) if (e.kind === 'entries') expect(e.event.executedTransactionCount).toBe(0n);
      }
    }
    expect(dead.size).toBeGreaterThanOrEqual(4);
    const all = batches.flatMap((b) => b.events);
    const statuses = all.flatMap((e) => (e.kind === 'slots' ? [e.event] : []));
    for (const s of dead) {
      expect(
        statuses.some(
          (e) =>
            e.slot === s &&
            e.status !== SlotStatus.SLOT_STATUS_DEAD &&
            e.status > SlotStatus.SLOT_STATUS_PROCESSED &&
            e.status < SlotStatus.SLOT_STATUS_SKIPPED,
        ),
      ).toBe(false);
    }
    for (const e of statuses) if (e.block) expect(dead.has(e.block.parentSlot)).toBe(false);
  });
});
