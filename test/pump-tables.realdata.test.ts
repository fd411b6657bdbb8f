// Loading a different IDL file at run time changes what is decoded, without a restart (issue 34): start with the
// May 2026 pump IDL (../shared/data/mainnet/pump/idl-pump.json), see a `buy_v3` as `unknown` with its program,
// discriminator and bytes (counted, and its transaction still delivered: its TradeEvent decodes), replace the file
// with the October 2026 IDL (idl-pump-2026-10.json) and see the same transaction decoded; the same through SIGHUP.
// Rests on: the two IDL files as the data README dates them; buy_v3's layout (amount u64, max_sol_cost u64,
// partial_fill OptionBool) and TradeEvent's (IDL-2293), from which the test transaction is built with the Borsh
// writer (pump-2026-10.md §1.1: no real buy_v3 transaction is in the data set); Anchor's self-CPI event form.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import bs58 from 'bs58';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ParsedSlot } from '../ingest/publish/parsed-slot.js';
import { DEFAULT_PARSED_FILTER, matchParsed } from '../api/pumpfun/parsed-filter.js';
import { TransactionEvent } from '../schemas/gen/events.js';
import { activeTables, BUNDLED_TABLES, resetActiveTables } from '../schemas/pumpfun/active-tables.js';
import { encodeEventInstruction, encodeInstruction } from '../schemas/pumpfun/borsh-writer.js';
import type { Value } from '../schemas/pumpfun/layout.js';
import { scanParsedTransaction, type UndecodedAt } from '../schemas/pumpfun/parsed-scan.js';
import { pumpIdlPath } from './support/mainnet/pump.js';
import { silentLogger } from '../platform/log.js';
import { startPumpTables, type PumpTablesHandle } from '../platform/pump-tables.js';

const MAY = pumpIdlPath('idl-pump.json');
const OCTOBER = pumpIdlPath('idl-pump-2026-10.json');
const k = (n: number) => Buffer.alloc(32, n);

// A v3 buy (17 accounts, IDL-2293) and the TradeEvent it emits through the program's event authority.
const { pump } = BUNDLED_TABLES;
const buyV3 = pump.instructions.find((d) => d.name === 'buy_v3')!;
const trade = pump.events.find((d) => d.name === 'TradeEvent')!;
const BUY_DATA = encodeInstruction(buyV3, { amount: 1_000_000n, max_sol_cost: 50_000_000n, partial_fill: [false] });
const zero = (t: string): unknown =>
  t === 'pubkey'
    ? k(0)
    : t === 'bool'
      ? false
      : t === 'string'
        ? 'buy_v3'
        : t.startsWith('vec')
          ? []
          : t.startsWith('u') || t === 'i64'
            ? 0n
            : null;
const TRADE_FIELDS = {
  ...Object.fromEntries(trade.fields.map((f) => [f.name, zero(f.typeText)])),
  mint: k(7),
  user: k(1),
  is_buy: true,
  token_amount: 1_000_000n,
  sol_amount: 31_000n,
  creator_fee_unclaimed: 12n,
} as unknown as Record<string, Value>;
const EVENT_DATA = encodeEventInstruction(trade, TRADE_FIELDS);
// keys: 0 user (signer), 1 pump, 2 event authority, 3..17 the rest of buy_v3's accounts
const keys = [
  k(1),
  pump.programIdBytes,
  Buffer.from(bs58.decode(pump.eventAuthority!)),
  ...Array.from({ length: 15 }, (_, i) => k(20 + i)),
];
const tx = TransactionEvent.fromPartial({
  slot: 5n,
  signatures: [Buffer.alloc(64, 3)],
  numRequiredSignatures: 1,
  accountKeys: keys,
  instructions: [{ programIdIndex: 1, accounts: Buffer.from([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15, 16, 17, 2]), data: BUY_DATA }],
  innerInstructions: [{ index: 0, instructions: [{ programIdIndex: 1, accounts: Buffer.from([2]), data: EVENT_DATA, stackHeight: 2 }] }],
});

function build() {
  const undecoded: UndecodedAt[] = [];
  const slot = new ParsedSlot((u) => undecoded.push(u));
  slot.add({ kind: 'transactions', event: tx } as never);
  const records = slot.take();
  return { scan: scanParsedTransaction(tx), records, undecoded };
}

let dir: string | undefined;
let handle: PumpTablesHandle | undefined;
afterEach(() => {
  handle?.stop(true);
  handle = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  resetActiveTables();
});

function tempIdl(from: string): string {
  dir = mkdtempSync(path.join(tmpdir(), 'pump-idl-'));
  const file = path.join(dir, 'pump.json');
  copyFileSync(from, file);
  return file;
}

function expectUnknownBuyV3(b: ReturnType<typeof build>): void {
  const x = b.scan.instructions[0]!;
  expect(x.program).toBe('pump');
  expect(x.instructionOneof?.$case).toBe('unknown');
  const u = (x.instructionOneof as { value: { kind: string; discriminator: Buffer; data: Buffer } }).value;
  expect(u.kind).toBe('unknown');
  expect(u.discriminator.toString('hex')).toBe(buyV3.discriminator.toString('hex'));
  expect(u.data).toEqual(BUY_DATA);
  expect(b.undecoded).toEqual([{ program: 'pump', entry: 'instruction', kind: 'unknown' }]);
  // Still delivered: its TradeEvent decodes (the May layout reads a prefix of it, the newer tail counted).
  expect(b.scan.events.map((e) => e.eventOneof?.$case)).toEqual(['trade']);
  expect(b.records).toHaveLength(1);
  expect(matchParsed(DEFAULT_PARSED_FILTER, { failed: false, hasInstruction: b.records[0]!.hasInstruction }, () => never())).toBe(true);
}

function expectDecodedBuyV3(b: ReturnType<typeof build>): void {
  expect(b.scan.instructionNames).toEqual(['buy_v3']);
  expect(b.scan.instructions[0]!.instructionOneof?.$case).toBe('buyV3'); // a typed member since issue 34's October members;
  expect(b.undecoded).toEqual([]);
  expect(b.records).toHaveLength(1);
}

const never = (): never => {
  throw new Error('facts read');
};

describe('--pump-idl: the decoder tables follow the file', () => {
  it('starts with the May 2026 IDL (buy_v3 unknown, with its bytes), decodes it once the file holds the October one', async () => {
    const file = tempIdl(MAY);
    handle = startPumpTables({ pump: file }, silentLogger, { pollMs: 20, sighup: false });
    expect(activeTables().pump.instructions.some((d) => d.name === 'buy_v3')).toBe(false);
    expectUnknownBuyV3(build());
    copyFileSync(OCTOBER, file);
    await vi.waitFor(() => expect(activeTables().pump.instructions.some((d) => d.name === 'buy_v3')).toBe(true), {
      timeout: 300_000,
      interval: 20,
    });
    expectDecodedBuyV3(build());
  });

  it('reloads on SIGHUP; a file that does not load keeps the tables in use', () => {
    const file = tempIdl(MAY);
    // A poll too slow to matter here: only the signal reloads.
    handle = startPumpTables({ pump: file }, silentLogger, { pollMs: 3_600_000 });
    expectUnknownBuyV3(build());
    copyFileSync(OCTOBER, file);
    process.emit('SIGHUP', 'SIGHUP');
    expectDecodedBuyV3(build());
    writeFileSync(file, '{"address": "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", "metadata": {"name": "pump"}, "instructions": [');
    expect(handle.reload()).toBe(false);
    expectDecodedBuyV3(build());
  });

  it('refuses at start a file that does not load, naming it and why', () => {
    const file = tempIdl(MAY);
    writeFileSync(
      file,
      JSON.stringify({ address: 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA', metadata: { name: 'pump_amm' }, instructions: [] }),
    );
    expect(() => startPumpTables({ pump: file }, silentLogger, { sighup: false })).toThrow(
      /pump\.json: a table of pump_amm, expected pump/,
    );
    expect(activeTables()).toBe(BUNDLED_TABLES);
  });
});
