// Shared pure parsers for positional params and config objects. Each throws RpcError -32602 whose
// `data` names the parameter and says what was wrong. Unknown config members are ignored, as Agave does
// (its config structs are plain serde structs without deny_unknown_fields); a known member of the wrong
// type is rejected.
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import { describeValue } from '../../platform/describe-value.js';
import type { Commitment } from '../../schemas/commitment.js';
import { invalidParam, invalidParams } from './errors.js';

export type { Commitment };
export type ParamsConfig = Readonly<Record<string, unknown>>;

const ALIASES: Readonly<Record<string, Commitment>> = {
  processed: 'processed',
  confirmed: 'confirmed',
  finalized: 'finalized',
  recent: 'processed',
  single: 'confirmed',
  singleGossip: 'confirmed',
  root: 'finalized',
  max: 'finalized',
};

/** `params` of the envelope as a positional array of `min`..`max` entries. */
export function positional(params: unknown, min: number, max: number): readonly unknown[] {
  if (params === undefined || params === null) {
    if (min > 0) throw invalidParams(`expected at least ${min} parameter${min > 1 ? 's' : ''}, got none`);
    return [];
  }
  if (!Array.isArray(params)) throw invalidParams('params must be a positional array, not an object');
  if (params.length < min) throw invalidParams(`expected at least ${min} parameter${min > 1 ? 's' : ''}, got ${params.length}`);
  if (params.length > max) throw invalidParams(`expected at most ${max} parameter${max === 1 ? '' : 's'}, got ${params.length}`);
  return params;
}

/** The parser of a method that takes no parameters (absent, null or `[]`). */
export function parseNoParams(name: string): (params: unknown) => null {
  return (params) => {
    if (Array.isArray(params) && params.length > 0) throw invalidParams(`${name} takes no parameters, got ${params.length}`);
    positional(params, 0, 0);
    return null;
  };
}

/** A base-58 public key (32 bytes). */
export function parsePubkey(v: unknown, name: string): string {
  if (typeof v !== 'string') throw invalidParams(`${name}: expected a base-58 public key string, got ${describeValue(v)}`);
  const d = decodeBase58Exact(v, 32);
  if (!d.ok) throw invalidParams(`${name}: invalid public key ${describeValue(v)}: ${d.reason}`);
  return v;
}

/** A base-58 transaction signature (64 bytes). */
export function parseSignature(v: unknown, name: string): string {
  if (typeof v !== 'string') throw invalidParams(`${name}: expected a base-58 signature string, got ${describeValue(v)}`);
  const d = decodeBase58Exact(v, 64);
  if (!d.ok) throw invalidParams(`${name}: invalid signature ${describeValue(v)}: ${d.reason}`);
  return v;
}

/**
 * A u64 given as a JSON number. Only whole numbers up to 2^53-1 are accepted: JSON.parse has already
 * rounded anything larger, so answering for it would answer for a different number.
 */
export function parseU64(v: unknown, name: string): bigint {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw invalidParams(`${name}: expected a non-negative whole number, got ${describeValue(v)}`);
  }
  if (!Number.isSafeInteger(v)) throw invalidParams(`${name}: ${v} is above 2^53-1, the largest exact JSON number accepted`);
  return BigInt(v);
}

/** A small non-negative whole number (offsets, lengths, limits). */
export function parseUsize(v: unknown, name: string): number {
  return Number(parseU64(v, name));
}

/** A config object at a position: absent or null means none. */
export function parseConfig(v: unknown, name: string): ParamsConfig {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams(`${name}: expected a config object, got ${describeValue(v)}`);
  return v as ParamsConfig;
}

/** A config member that must be an object when present. */
export function optionalObject(config: ParamsConfig, member: string): ParamsConfig | undefined {
  const v = config[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams(`${member}: expected an object, got ${describeValue(v)}`);
  return v as ParamsConfig;
}

export function optionalString(config: ParamsConfig, member: string): string | undefined {
  const v = config[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidParams(`${member}: expected a string, got ${describeValue(v)}`);
  return v;
}

export function optionalBool(config: ParamsConfig, member: string): boolean | undefined {
  const v = config[member];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalidParams(`${member}: expected true or false, got ${describeValue(v)}`);
  return v;
}

export function optionalU64(config: ParamsConfig, member: string): bigint | undefined {
  const v = config[member];
  if (v === undefined || v === null) return undefined;
  return parseU64(v, member);
}

/** `commitment` of a config: default finalized; legacy aliases accepted. */
export function parseCommitment(config: ParamsConfig): Commitment {
  const v = config.commitment;
  if (v === undefined || v === null) return 'finalized';
  if (typeof v !== 'string' || !Object.hasOwn(ALIASES, v)) {
    throw invalidParams(`commitment: expected one of processed, confirmed, finalized, got ${describeValue(v)}`);
  }
  return ALIASES[v]!;
}

/** For methods that only answer from confirmed data (getBlocks, getBlocksWithLimit, getSignaturesForAddress). */
export function parseConfirmedCommitment(config: ParamsConfig): Commitment {
  const c = parseCommitment(config);
  if (c === 'processed') throw invalidParam('Method does not support commitment below `confirmed`');
  return c;
}

/** The members every config carries: commitment and minContextSlot. */
export interface ContextConfig {
  commitment: Commitment;
  minContextSlot: bigint | undefined;
}

export function parseContextConfig(config: ParamsConfig, confirmedOnly = false): ContextConfig {
  return {
    commitment: confirmedOnly ? parseConfirmedCommitment(config) : parseCommitment(config),
    minContextSlot: optionalU64(config, 'minContextSlot'),
  };
}
