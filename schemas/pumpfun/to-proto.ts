// Decoded pump.fun and PumpSwap instructions and events (extract.ts) as SubscribeParsed's messages. Pure.
// - The seed's six instructions keep their seed members (an old client knows them), decoded as the seed did
//   (decode.ts); arguments a later layout appended that the seed message has no field for go to `extra_args`.
// - The trading-relevant newer instructions and events have typed members whose fields are the tables' fields
//   by name (snake_case → the generated camelCase); every scalar is optional there, so a field an older layout
//   lacks is absent, never zero. i128/u128 travel as decimal strings (proto has no 128-bit integer).
// - Everything else goes out as `other`: name plus every decoded field (`DecodedField`).
// - Undecodable data (a discriminator no loaded table knows, truncated, invalid) goes out as `unknown` with its
//   program, discriminator and raw bytes (issue 34: never dropped; an operator counts them, ingest/metrics.ts).
import bs58 from 'bs58';
import type { DecodedField, Event, Instruction, UndecodedEntry } from '../../proto/gen/stream.js';
import { decodePumpInstruction } from './decode.js';
import type { PumpEventAt, PumpInstructionAt } from './extract.js';
import type { Field, Fields, Value } from './layout.js';
import type { EventDef, InstructionDef } from './program-table.js';
import type { EventDecode, InstructionDecode } from './decoder.js';

type InstructionCase = NonNullable<Instruction['instructionOneof']>['$case'];
type EventCase = NonNullable<Event['eventOneof']>['$case'];

/** Typed oneof members by `program/name`; the rest are `other`. */
const INSTRUCTION_CASES: Readonly<Record<string, InstructionCase>> = {
  'pump/create_v2': 'createV2',
  'pump/buy_v2': 'buyV2',
  'pump/buy_exact_sol_in': 'buyExactSolIn',
  'pump/buy_exact_quote_in_v2': 'buyExactQuoteInV2',
  'pump/sell_v2': 'sellV2',
  'pump/migrate': 'migrate',
  'pump_amm/buy': 'ammBuy',
  'pump_amm/sell': 'ammSell',
  'pump_amm/buy_exact_quote_in': 'ammBuyExactQuoteIn',
  'pump_amm/create_pool': 'ammCreatePool',
  'pump_amm/deposit': 'ammDeposit',
  'pump_amm/withdraw': 'ammWithdraw',
  // Issue 34: the October 2026 trades and sweeps (same discriminators in both programs: the program decides).
  'pump/buy_v3': 'buyV3',
  'pump/sell_v3': 'sellV3',
  'pump/buy_exact_quote_in_v3': 'buyExactQuoteInV3',
  'pump/multi_hop_curve_swap': 'multiHopCurveSwap',
  'pump/sweep_protocol_fee': 'sweepProtocolFee',
  'pump/sweep_creator_fee': 'sweepCreatorFee',
  'pump_amm/buy_v2': 'ammBuyV2',
  'pump_amm/sell_v2': 'ammSellV2',
  'pump_amm/buy_exact_quote_in_v2': 'ammBuyExactQuoteInV2',
  'pump_amm/multi_hop_swap': 'ammMultiHopSwap',
  'pump_amm/sweep_protocol_fee': 'ammSweepProtocolFee',
  'pump_amm/sweep_creator_fee': 'ammSweepCreatorFee',
};

const EVENT_CASES: Readonly<Record<string, EventCase>> = {
  'pump/TradeEvent': 'trade',
  'pump/CreateEvent': 'create',
  'pump/CompleteEvent': 'complete',
  'pump_amm/BuyEvent': 'ammBuy',
  'pump_amm/SellEvent': 'ammSell',
  'pump_amm/CreatePoolEvent': 'ammCreatePool',
  // Issue 34.
  'pump/PostCompleteBuyEvent': 'postCompleteBuy',
  'pump/SweepBondingCurveFeeEvent': 'sweepBondingCurveFee',
  'pump_amm/SweepPoolFeeEvent': 'ammSweepPoolFee',
};

/** The seed's pump.fun instructions and the argument names their messages carry. */
const SEED_ARGS: Readonly<Record<string, readonly string[]>> = {
  initialize: [],
  set_params: [],
  create: ['name', 'symbol', 'uri'],
  buy: ['amount', 'max_sol_cost'],
  sell: ['amount', 'min_sol_output'],
  withdraw: [],
};

const camel = (s: string): string => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const camelCache = new Map<string, string>();
function camelOf(s: string): string {
  let c = camelCache.get(s);
  if (c === undefined) camelCache.set(s, (c = camel(s)));
  return c;
}

/** A decoded value in a typed message's field. */
function typedValue(f: Field, v: Value): unknown {
  const t = f.type;
  if (t.k === 'u128' || t.k === 'i128') return String(v);
  if (t.k === 'option') return v === null ? undefined : v;
  // A one-field tuple struct (OptionBool): [bool] → bool.
  if (t.k === 'struct' && t.tuple && t.fields.length === 1) return (v as readonly Value[])[0];
  if (t.k === 'vec' && t.of?.k === 'struct' && !t.of.tuple) return camelItems(v);
  return v;
}

const camelItems = (v: Value): unknown =>
  (v as readonly Record<string, Value>[]).map((item) => Object.fromEntries(Object.entries(item).map(([k, x]) => [camelOf(k), x])));

/** The expression typedValue's conversion of field `f` is, over `f` (the fields) in generated code. */
function typedExpr(f: Field): string {
  const v = `f[${JSON.stringify(f.name)}]`;
  const t = f.type;
  if (t.k === 'u128' || t.k === 'i128') return `String(${v})`;
  if (t.k === 'option') return `(${v} === null ? undefined : ${v})`;
  if (t.k === 'struct' && t.tuple && t.fields.length === 1) return `${v}[0]`;
  if (t.k === 'vec' && t.of?.k === 'struct' && !t.of.tuple) return `camelItems(${v})`;
  return v;
}

type Whole = (fields: Fields) => Record<string, unknown>;
const wholeBuilders = new WeakMap<readonly Field[], Whole>();

/** typedMessage for data that carries every field (today's layouts: the common case), as one object literal
 * generated once per definition from its own field list: no name conversion, ownership check or keyed store
 * per field. The same keys in the same order as typedMessage. */
function wholeBuilderOf(defFields: readonly Field[]): Whole {
  let b = wholeBuilders.get(defFields);
  if (b !== undefined) return b;
  const props = defFields.map((f) => `${JSON.stringify(camelOf(f.name))}: ${typedExpr(f)}`).join(', ');
  b = new Function('camelItems', `return function whole(f) { return { ${props} }; };`)(camelItems) as Whole;
  wholeBuilders.set(defFields, b);
  return b;
}

function typedMessage(defFields: readonly Field[], fields: Fields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of defFields) {
    if (!Object.hasOwn(fields, f.name)) {
      // A repeated field has no "absent" on the wire: an older layout's missing vector goes out empty.
      if (f.type.k === 'vec' || f.type.k === 'array') out[camelOf(f.name)] = [];
      continue;
    }
    out[camelOf(f.name)] = typedValue(f, fields[f.name]!);
  }
  return out;
}

function jsonOf(v: Value): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return bs58.encode(v);
  if (Array.isArray(v)) return (v as readonly Value[]).map(jsonOf);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonOf(x as Value)]));
  return v;
}

function decodedField(f: Field, v: Value): DecodedField {
  const name = f.name;
  switch (f.type.k) {
    case 'u64':
      return { name, value: { $case: 'u64', value: v as bigint } };
    case 'i64':
      return { name, value: { $case: 'i64', value: v as bigint } };
    case 'u8':
    case 'u16':
    case 'u32':
      return { name, value: { $case: 'u32', value: v as number } };
    case 'bool':
      return { name, value: { $case: 'bool', value: v as boolean } };
    case 'pubkey':
      return { name, value: { $case: 'pubkey', value: v as Buffer } };
    case 'string':
      return { name, value: { $case: 'string', value: v as string } };
    case 'u128':
    case 'i128':
      return { name, value: { $case: 'big', value: String(v) } };
    default:
      return { name, value: { $case: 'json', value: JSON.stringify(jsonOf(v)) } };
  }
}

function decodedFields(defFields: readonly Field[], fields: Fields, skip: readonly string[] = []): DecodedField[] {
  const out: DecodedField[] = [];
  for (const f of defFields) if (Object.hasOwn(fields, f.name) && !skip.includes(f.name)) out.push(decodedField(f, fields[f.name]!));
  return out;
}

/** A typed member's message from decoded fields (`absent`: the table's fields the data lacks). */
export function typedOf(def: InstructionDef | EventDef, fields: Fields, absent: readonly string[]): Record<string, unknown> {
  return absent.length === 0 ? wholeBuilderOf(def.fields)(fields) : typedMessage(def.fields, fields);
}

/** The field-by-field conversion alone (tests pin the generated one against it). */
export const typedMessageByField = typedMessage;

// The oneof member of each definition, looked up once (not a `program/name` string per message).
const instructionCases = new WeakMap<InstructionDef, InstructionCase | null>();
const eventCases = new WeakMap<EventDef, EventCase | null>();

function caseOf<D extends InstructionDef | EventDef, C>(
  cache: WeakMap<D, C | null>,
  cases: Readonly<Record<string, C>>,
  def: D,
): C | undefined {
  let c = cache.get(def);
  if (c === undefined) cache.set(def, (c = cases[`${def.program}/${def.name}`] ?? null));
  return c ?? undefined;
}

const EMPTY = Buffer.alloc(0);

/** An undecodable instruction's or event's message: what it was, its first 8 bytes and all its bytes (a copy). */
function undecoded(d: Exclude<InstructionDecode | EventDecode, { kind: 'decoded' }>, data: Uint8Array): UndecodedEntry {
  const bytes = Buffer.from(data);
  return {
    kind: d.kind,
    discriminator: bytes.subarray(0, 8),
    data: bytes,
    reason: d.reason,
    name: d.kind === 'unknown' ? '' : (d.name ?? ''),
  };
}

/** SubscribeParsed's Instruction for an instruction (`data`: its raw data, for the seed's decoding and `unknown`). */
export function toProtoInstruction(x: PumpInstructionAt, data: Uint8Array): Instruction {
  const d = x.decoded;
  const accounts: Buffer[] = new Array<Buffer>(x.accounts.length);
  for (let i = 0; i < accounts.length; i++) accounts[i] = x.accounts[i] ?? EMPTY;
  const message = (instructionOneof: Instruction['instructionOneof'], extraArgs: DecodedField[]): Instruction => ({
    instructionOneof,
    program: x.program,
    index: x.index,
    innerIndex: x.innerIndex,
    inner: x.inner,
    stackHeight: x.stackHeight,
    invokedBy: x.invokedBy ?? EMPTY,
    accounts,
    extraArgs,
  });
  if (x.program === 'pump') {
    const seed = decodePumpInstruction(data);
    if (seed !== undefined) {
      const name = d.kind === 'decoded' ? d.name : undefined;
      const extraArgs =
        d.kind === 'decoded' && name !== undefined && name in SEED_ARGS ? decodedFields(d.def.fields, d.fields, SEED_ARGS[name]) : [];
      // set_params' later layout shares the discriminator but not the fields: its values go out whole.
      return message(seed, seed.$case === 'setParams' ? [] : extraArgs);
    }
  }
  if (d.kind !== 'decoded') return message({ $case: 'unknown', value: undecoded(d, data) }, []);
  const typed = caseOf(instructionCases, INSTRUCTION_CASES, d.def);
  const instructionOneof = (
    typed === undefined
      ? { $case: 'other', value: { name: d.name, args: decodedFields(d.def.fields, d.fields) } }
      : { $case: typed, value: typedOf(d.def, d.fields, d.absent) }
  ) as Instruction['instructionOneof'];
  return message(instructionOneof, []);
}

/** SubscribeParsed's Event for a self-CPI event (`data`: its bytes after Anchor's event tag, for `unknown`). */
export function toProtoEvent(e: PumpEventAt, data: Uint8Array): Event {
  const d = e.decoded;
  if (d.kind !== 'decoded')
    return {
      program: e.program,
      index: e.index,
      innerIndex: e.innerIndex,
      stackHeight: e.stackHeight,
      eventOneof: { $case: 'unknown', value: undecoded(d, data) },
    };
  const typed = caseOf(eventCases, EVENT_CASES, d.def);
  const eventOneof = (
    typed === undefined
      ? { $case: 'other', value: { name: d.name, fields: decodedFields(d.def.fields, d.fields) } }
      : { $case: typed, value: typedOf(d.def, d.fields, d.absent) }
  ) as Event['eventOneof'];
  return { program: e.program, index: e.index, innerIndex: e.innerIndex, stackHeight: e.stackHeight, eventOneof };
}
