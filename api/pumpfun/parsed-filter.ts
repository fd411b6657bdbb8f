// SubscribeParsed's request filters (proto SubscribeParsedRequest, fields 2-8), compiled once per request and
// matched against what the ingest's parsed record says of a transaction (its summary, and its ParsedFacts when
// the request's filters read them: schemas/pumpfun/parsed-facts.ts). Pure.
// - No field set: the three programs (pump, PumpSwap, Pump Fees), top-level and inner, every kind, successful
//   transactions; a transaction passes with at least one instruction (decoded or, issue 34, `unknown`).
// - programs / instruction_level narrow which instructions and events count (an event counts under a level only
//   when an instruction of the same top-level index passes that level: it belongs to the call that emitted it).
// - instruction_kinds / event_kinds: an instruction or event of one of these kinds counts, whichever list names it.
// - mints (issue 34): any account of an instruction that counts, or any pubkey field of an event that counts, is one
//   of them, with or without event_kinds (a PumpSwap sweep names its coin only in SweepPoolFeeEvent.base_mint). Each
//   condition holds for the transaction: the kind and the mint may be on different instructions/events.
// - users: one of them signed the transaction. include_failed: failed transactions pass too.
// - Trade filters (issue 34: trade_kinds, traders, min_quote_amount, min_base_amount) act on the transaction's trades
//   (schemas/pumpfun/trades.ts): one trade of a counted program meets them all, and `mints` (when set) on that same
//   trade (its coin or its quote mint) instead of on the instructions and events.
// Invalid fields give an error naming the field and the entry (the stream ends with INVALID_ARGUMENT).
import { ParsedInstructionLevel, type SubscribeParsedRequest } from '../../proto/gen/stream.js';
import type { ParsedFacts } from '../../schemas/gen/events.js';
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import { activeTables } from '../../schemas/pumpfun/active-tables.js';
import { PUMP } from '../../schemas/pumpfun/pump-table.js';
import { PUMP_AMM } from '../../schemas/pumpfun/pump-amm-table.js';
import { PUMP_FEES } from '../../schemas/pumpfun/pump-fees-table.js';
import type { PumpProgramName } from '../../schemas/pumpfun/program-table.js';

/** At most this many entries in each list field (a request is matched per transaction, per stream). */
export const MAX_PARSED_FILTER_ENTRIES = 256;

export interface ParsedFilter {
  readonly programs: ReadonlySet<PumpProgramName>;
  readonly instructionKinds: ReadonlySet<string> | undefined;
  readonly eventKinds: ReadonlySet<string> | undefined;
  readonly mints: ReadonlySet<string> | undefined;
  readonly users: ReadonlySet<string> | undefined;
  readonly includeFailed: boolean;
  readonly level: ParsedInstructionLevel;
  /** Issue 34: trade filters (undefined: none set). */
  readonly trade?: TradeFilter;
}

export interface TradeFilter {
  readonly kinds: ReadonlySet<string> | undefined;
  readonly traders: ReadonlySet<string> | undefined;
  readonly minQuoteAmount: bigint;
  readonly minBaseAmount: bigint;
}

/** The trade kinds (stream.proto ParsedTrade.kind). */
export const TRADE_KINDS: readonly string[] = ['buy', 'sell', 'fee_sweep'];

export const DEFAULT_PARSED_FILTER: ParsedFilter = {
  programs: new Set<PumpProgramName>(['pump', 'pump_amm', 'pump_fees']),
  instructionKinds: undefined,
  eventKinds: undefined,
  mints: undefined,
  users: undefined,
  includeFailed: false,
  level: ParsedInstructionLevel.BOTH,
};

const PROGRAM_BY_ID: ReadonlyMap<string, PumpProgramName> = new Map([
  [PUMP.programId, 'pump'],
  [PUMP_AMM.programId, 'pump_amm'],
  [PUMP_FEES.programId, 'pump_fees'],
]);
// The seed decoded pump.fun's `withdraw`, which today's IDL no longer has: it still counts as a kind; so does
// `unknown` (issue 34: what no loaded table decodes). Names from the tables in use (a reload may add some).
const instructionNames = (): Set<string> =>
  new Set(['withdraw', 'unknown', ...activeTables().all.flatMap((t) => t.instructions.map((d) => d.name))]);
const eventNames = (): Set<string> => new Set(['unknown', ...activeTables().all.flatMap((t) => t.events.map((d) => d.name))]);

/** Whether a request sets any of the filter, commitment or replay fields (a ping alone sets none). */
export function hasParsedOptions(r: SubscribeParsedRequest): boolean {
  return (
    r.programs.length > 0 ||
    r.instructionKinds.length > 0 ||
    r.eventKinds.length > 0 ||
    r.mints.length > 0 ||
    r.users.length > 0 ||
    r.includeFailed !== undefined ||
    r.instructionLevel !== undefined ||
    r.tradeKinds.length > 0 ||
    r.traders.length > 0 ||
    r.minQuoteAmount !== undefined ||
    r.minBaseAmount !== undefined ||
    r.commitment !== undefined ||
    r.fromSlot !== undefined ||
    r.cursor !== undefined ||
    r.toSlot !== undefined ||
    r.pace !== undefined
  );
}

export type ParsedFilterResult = { ok: true; filter: ParsedFilter } | { ok: false; error: string };

function tooMany(field: string, list: readonly string[]): string | undefined {
  return list.length > MAX_PARSED_FILTER_ENTRIES ? `${field}: ${list.length} entries, at most ${MAX_PARSED_FILTER_ENTRIES}` : undefined;
}

function keySet(field: string, list: readonly string[]): { error: string } | { set: Set<string> | undefined } {
  const over = tooMany(field, list);
  if (over) return { error: over };
  if (list.length === 0) return { set: undefined };
  const set = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const d = decodeBase58Exact(list[i]!, 32);
    if (!d.ok) return { error: `${field}[${i}]: ${JSON.stringify(list[i]!.slice(0, 64))} is not a base58 pubkey (${d.reason})` };
    set.add(Buffer.from(d.bytes).toString('latin1'));
  }
  return { set };
}

export function compileParsedFilter(r: SubscribeParsedRequest): ParsedFilterResult {
  const fail = (error: string): ParsedFilterResult => ({ ok: false, error });
  for (const [field, list] of [
    ['programs', r.programs],
    ['instruction_kinds', r.instructionKinds],
    ['event_kinds', r.eventKinds],
    ['trade_kinds', r.tradeKinds],
  ] as const) {
    const over = tooMany(field, list);
    if (over) return fail(over);
  }
  const programs = programsOf(r.programs);
  if (typeof programs === 'string') return fail(programs);
  const kindError =
    unknownName(
      'instruction_kinds',
      r.instructionKinds,
      instructionNames,
      'is no instruction of pump.fun or PumpSwap (IDL names, e.g. buy_v2)',
    ) ??
    unknownName('event_kinds', r.eventKinds, eventNames, 'is no event of pump.fun or PumpSwap (IDL names, e.g. TradeEvent)') ??
    unknownName('trade_kinds', r.tradeKinds, () => new Set<string>(TRADE_KINDS), `is not one of ${TRADE_KINDS.join(', ')}`);
  if (kindError !== undefined) return fail(kindError);
  const mints = keySet('mints', r.mints);
  if ('error' in mints) return fail(mints.error);
  const users = keySet('users', r.users);
  if ('error' in users) return fail(users.error);
  const traders = keySet('traders', r.traders);
  if ('error' in traders) return fail(traders.error);
  const tradeSet = r.tradeKinds.length > 0 || r.traders.length > 0 || r.minQuoteAmount !== undefined || r.minBaseAmount !== undefined;
  const level = r.instructionLevel ?? ParsedInstructionLevel.BOTH;
  if (!LEVELS.has(level))
    return fail(`instruction_level: ${String(r.instructionLevel)} is not BOTH (0), TOP_LEVEL_ONLY (1) or INNER_ONLY (2)`);
  return {
    ok: true,
    filter: {
      programs: programs.size === 0 ? DEFAULT_PARSED_FILTER.programs : programs,
      instructionKinds: r.instructionKinds.length === 0 ? undefined : new Set(r.instructionKinds),
      eventKinds: r.eventKinds.length === 0 ? undefined : new Set(r.eventKinds),
      mints: mints.set,
      users: users.set,
      includeFailed: r.includeFailed ?? false,
      level,
      ...(tradeSet
        ? {
            trade: {
              kinds: r.tradeKinds.length === 0 ? undefined : new Set(r.tradeKinds),
              traders: traders.set,
              minQuoteAmount: r.minQuoteAmount ?? 0n,
              minBaseAmount: r.minBaseAmount ?? 0n,
            },
          }
        : {}),
    },
  };
}

const LEVELS: ReadonlySet<ParsedInstructionLevel> = new Set([
  ParsedInstructionLevel.BOTH,
  ParsedInstructionLevel.TOP_LEVEL_ONLY,
  ParsedInstructionLevel.INNER_ONLY,
]);

/** The request's programs by name; a message naming the entry that is none of the three. */
function programsOf(ids: readonly string[]): Set<PumpProgramName> | string {
  const programs = new Set<PumpProgramName>();
  for (let i = 0; i < ids.length; i++) {
    const p = PROGRAM_BY_ID.get(ids[i]!);
    if (p === undefined)
      return `programs[${i}]: ${JSON.stringify(ids[i]!.slice(0, 64))} is not pump.fun (${PUMP.programId}), PumpSwap (${PUMP_AMM.programId}) or Pump Fees (${PUMP_FEES.programId})`;
    programs.add(p);
  }
  return programs;
}

/** A message naming the first entry of `list` that `known` (read only when the list has entries) lacks. */
function unknownName(field: string, list: readonly string[], known: () => ReadonlySet<string>, why: string): string | undefined {
  if (list.length === 0) return undefined;
  const names = known();
  const i = list.findIndex((name) => !names.has(name));
  return i < 0 ? undefined : `${field}[${i}]: ${JSON.stringify(list[i]!.slice(0, 64))} ${why}`;
}

const id = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1');

function levelPasses(level: ParsedInstructionLevel, inner: boolean): boolean {
  return level === ParsedInstructionLevel.BOTH || (level === ParsedInstructionLevel.INNER_ONLY ? inner : !inner);
}

/** Whether the filter reads a transaction's facts: not when it reads only `failed` and "has a decoded instruction"
 * (a request without filter fields, or one that only asks for failed transactions too; then the record's two
 * fields decide and its facts stay undecoded). */
export function readsFacts(f: ParsedFilter): boolean {
  return !(
    f.instructionKinds === undefined &&
    f.eventKinds === undefined &&
    f.mints === undefined &&
    f.users === undefined &&
    f.level === ParsedInstructionLevel.BOTH &&
    f.programs.size === DEFAULT_PARSED_FILTER.programs.size &&
    f.trade === undefined
  );
}

/** What the ingest's parsed record says of a transaction (schemas/events.proto ParsedTransactionEvent). */
export interface ParsedSummary {
  readonly failed: boolean;
  readonly hasInstruction: boolean;
}

/** Whether a parsed transaction passes the filter; `facts` is called only when the filter reads them. */
export function matchParsed(f: ParsedFilter, summary: ParsedSummary, facts: () => ParsedFacts): boolean {
  if (summary.failed && !f.includeFailed) return false;
  if (!readsFacts(f)) return summary.hasInstruction;
  return matchFacts(f, facts());
}

function matchFacts(f: ParsedFilter, facts: ParsedFacts): boolean {
  const hasKey = (set: ReadonlySet<string>, keys: readonly Uint8Array[]) => keys.some((k) => set.has(id(k)));
  // Each condition holds for the transaction when any instruction or event that counts (program, level) meets it.
  const anyKind = f.instructionKinds === undefined && f.eventKinds === undefined;
  let kind = anyKind;
  // With trade filters, `mints` is tested on the trade that meets them (below), not on instructions and events.
  let mint = f.mints === undefined || f.trade !== undefined;
  if (f.trade !== undefined && !matchTrade(f, f.trade, facts)) return false;
  // users: one of them signed (stream.proto; not any key: a creator or fee recipient named in every trade of a coin
  // would match them all).
  if (f.users && !facts.signers.some((k) => f.users!.has(id(k)))) return false;
  let counted = false;
  // Top-level indexes with an instruction passing program and level (an event counts under a level only then).
  let levelIndexes: Set<number> | undefined;
  for (const x of facts.instructions) {
    if (!f.programs.has(x.program as PumpProgramName) || !levelPasses(f.level, x.inner)) continue;
    if (f.level !== ParsedInstructionLevel.BOTH) (levelIndexes ??= new Set()).add(x.index);
    counted = true;
    if (!kind && f.instructionKinds?.has(x.name)) kind = true;
    if (!mint && hasKey(f.mints!, x.keys)) mint = true;
  }
  for (const e of facts.events) {
    if (!f.programs.has(e.program as PumpProgramName)) continue;
    if (f.level !== ParsedInstructionLevel.BOTH && !levelIndexes?.has(e.index)) continue;
    counted = true;
    if (!kind && f.eventKinds?.has(e.name)) kind = true;
    if (!mint && hasKey(f.mints!, e.keys)) mint = true;
  }
  return counted && kind && mint;
}

/** Whether one trade of a counted program meets every trade filter, and `mints` (its coin or quote mint). */
function matchTrade(f: ParsedFilter, t: TradeFilter, facts: ParsedFacts): boolean {
  for (const x of facts.trades) {
    if (!f.programs.has(x.program as PumpProgramName)) continue;
    if (t.kinds !== undefined && !t.kinds.has(x.kind)) continue;
    if (t.traders !== undefined && !t.traders.has(id(x.trader))) continue;
    if (x.quoteAmount < t.minQuoteAmount || x.baseAmount < t.minBaseAmount) continue;
    if (f.mints !== undefined && !f.mints.has(id(x.mint)) && !f.mints.has(id(x.quoteMint))) continue;
    return true;
  }
  return false;
}
