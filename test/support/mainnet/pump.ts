// The pump.fun / PumpSwap recordings of ../shared/data/mainnet/pump (see its README): 20 real transactions with
// their meta, the values their sources assert (`expected`) and a full decode (`decoded`), and the two official
// IDLs. Read in place at test time, never copied. Also the conversions the tests compare through: a record into
// the event model (the rpc source's own converter, as the getBlock path would do it), and a decoded value into
// the data set's JSON conventions (u64 as decimal strings, keys base58).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import bs58 from 'bs58';
import { transactionFromRpc, type RpcMeta } from '../../../ingest/sources/rpc/convert.js';
import { parseJsonExact } from '../../../ingest/sources/shared/rpc-json.js';
import type { TransactionEvent } from '../../../schemas/gen/events.js';
import { mainnetDataDir, pumpTransactionsText } from './data.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface PumpRecordInstruction {
  index: number;
  inner: boolean;
  inner_index?: number;
  program: 'pump' | 'pump_amm';
  name: string;
  args: Record<string, Json>;
  absent_newer_args?: string[];
  undecoded_trailing_bytes?: number;
  accounts: string[];
  account_names_current_idl?: string[];
}

export interface PumpRecordEvent {
  index: number;
  inner_index: number;
  program: 'pump' | 'pump_amm';
  name: string;
  fields: Record<string, Json>;
  absent_newer_fields?: string[];
  undecoded_trailing_bytes?: number;
}

export interface PumpRecord {
  id: number;
  signature: string;
  slot: number | null;
  blockTime: number | null;
  version: 'legacy' | 0 | 1;
  program: 'pump' | 'pump_amm';
  programs_involved: ('pump' | 'pump_amm')[];
  wire_base64: string;
  meta: RpcMeta & {
    innerInstructions: {
      index: number;
      instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight?: number | null }[];
    }[];
  };
  expected: {
    instructions: {
      index: number;
      inner: boolean;
      inner_index?: number;
      name: string;
      args?: Record<string, Json>;
      accounts?: Record<string, string>;
    }[];
    events: { name: string; index: number; inner_index: number; fields: Record<string, Json> }[];
  };
  decoded: { instructions: PumpRecordInstruction[]; events: PumpRecordEvent[] };
}

export function pumpDataDir(): string {
  return path.join(mainnetDataDir(), 'pump');
}

/** transactions.json, long integers kept exact (parseJsonExact turns them into decimal strings). */
export function readPumpRecords(): PumpRecord[] {
  return parseJsonExact(pumpTransactionsText()) as PumpRecord[];
}

export interface IdlType {
  name: string;
  type: { kind: string; fields?: (string | { name: string; type: unknown })[] };
}
export interface Idl {
  address: string;
  metadata: { name: string };
  instructions: { name: string; discriminator: number[]; accounts: { name: string }[]; args: { name: string; type: unknown }[] }[];
  events: { name: string; discriminator: number[] }[];
  types: IdlType[];
}

/** The May 2026 IDL of pump or PumpSwap (pump-public-docs 1b822158). */
export function readPumpIdl(program: 'pump' | 'pump_amm'): Idl {
  return readPumpIdlFile(program === 'pump' ? 'idl-pump.json' : 'idl-pump-amm.json');
}

/** Each program's IDL files in the data set, oldest first (the data README dates them). */
export const PUMP_IDL_FILES = {
  pump: ['idl-pump.json', 'idl-pump-2026-10.json'],
  pump_amm: ['idl-pump-amm.json', 'idl-pump-amm-2026-10.json'],
  pump_fees: ['idl-pump-fees-2026-10.json'],
} as const;

export function pumpIdlPath(file: string): string {
  return path.join(pumpDataDir(), file);
}

export function readPumpIdlFile(file: string): Idl {
  return JSON.parse(readFileSync(pumpIdlPath(file), 'utf8')) as Idl;
}

/** An IDL type in the tables' notation: u64, option<u64>, vec<Shareholder>, [pubkey;8], OptionBool. */
export function idlTypeText(t: unknown): string {
  if (typeof t === 'string') return t;
  const o = t as Record<string, unknown>;
  if ('defined' in o) return (o.defined as { name: string }).name;
  if ('option' in o) return `option<${idlTypeText(o.option)}>`;
  if ('vec' in o) return `vec<${idlTypeText(o.vec)}>`;
  if ('array' in o) {
    const [of, len] = o.array as [unknown, number];
    return `[${idlTypeText(of)};${len}]`;
  }
  throw new Error(`IDL type not understood: ${JSON.stringify(t)}`);
}

/** A record as the event model holds it, through the rpc source's converter (Agave's getBlock JSON shape). */
export function pumpRecordTransaction(r: PumpRecord): TransactionEvent {
  return transactionFromRpc(
    { transaction: [r.wire_base64, 'base64'], meta: r.meta, version: r.version },
    { slot: BigInt(r.slot ?? 0), index: 0, blockTime: r.blockTime === null ? undefined : BigInt(r.blockTime) },
  );
}

/** A decoded value in the data set's JSON conventions: bigints as decimal strings, 32-byte keys base58. */
export function toRecordJson(v: unknown): Json {
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return bs58.encode(v);
  if (Array.isArray(v)) return v.map(toRecordJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toRecordJson(x)]));
  return v as Json;
}
