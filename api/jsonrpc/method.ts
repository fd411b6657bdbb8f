// What a method is: a pure params parser, the message of its -32007, and a run against the views.
// The server parses, checks freshness, then runs; methods only see parsed params and a state snapshot.
import { minContextSlotNotReached, unavailable } from '../solana-json/errors.js';
import { toJson, u64Json } from '../solana-json/json.js';
import type { Commitment } from '../solana-json/params.js';
import type { QueryClient } from '../views/query.js';
import type { Health, ViewsState } from '../views/state.js';
import type { HeadContext } from './head.js';
import type { NodeVersion } from './node-version.js';

export interface MethodContext {
  /** The request's queries: admitted per client (admission.ts). */
  ch: QueryClient;
  db: string;
  state: ViewsState;
  /** The node version this request answers with (node-version.ts): getVersion's. */
  version: NodeVersion;
  /** `apiVersion` of `withContext` answers: `version.solanaCore`, as Agave's context carries its solana-core. */
  apiVersion: string;
  /** getHealth's answer now (reads the views state itself; unreadable views are `unknown`). */
  health(): Promise<Health>;
  /** The newest slot the api's live Kafka reader has seen (undefined before the first). */
  chainTip(): bigint | undefined;
  /** What a validator knows of itself and slotstream only by configuration (getIdentity, getGenesisHash). */
  node: NodeFacts;
  /** Operator limits of the answers (config `rpcMaxProgramAccounts`). */
  limits: MethodLimits;
}

export interface MethodLimits {
  /** Most accounts one getProgramAccounts answer may hold; beyond, -32012 pointing to getProgramAccountsV2. */
  maxProgramAccounts: number;
}

/**
 * A result written as it is read (getProgramAccounts): JSON text fragments that together make the result value.
 * The server sends them as they come, so memory holds one chunk, not the answer; in a batch they are joined.
 */
export class StreamedResult {
  constructor(readonly fragments: AsyncIterable<string>) {}
}

/** A JSON array streamed from chunks of its items, inside `head` and `tail` (a withContext wrapping). */
export function streamedArray(chunks: AsyncIterable<readonly unknown[]>, head = '', tail = ''): StreamedResult {
  return streamedJsonArray(
    (async function* () {
      for await (const items of chunks) if (items.length > 0) yield toJson(items).slice(1, -1);
    })(),
    head,
    tail,
  );
}

/** A JSON array streamed from chunks of its items already written as JSON text (comma-separated, no brackets). */
export function streamedJsonArray(chunks: AsyncIterable<string>, head = '', tail = ''): StreamedResult {
  return new StreamedResult(
    (async function* () {
      let first = true;
      for await (const text of chunks) {
        if (text.length === 0) continue;
        yield (first ? `${head}[` : ',') + text;
        first = false;
      }
      yield (first ? `${head}[` : '') + `]${tail}`;
    })(),
  );
}

/** The head and tail of a streamed `withContext` answer. */
export function contextWrapping(slot: bigint, apiVersion: string): { head: string; tail: string } {
  const text = toJson(withContext(slot, apiVersion, null));
  // toJson writes members in insertion order: ...,"value":null}
  return { head: text.slice(0, -'null}'.length), tail: '}' };
}

/** Operator-given facts about the chain and the node; undefined = not configured. */
export interface NodeFacts {
  identity?: string;
  genesisHash?: string;
}

export interface Method<P> {
  name: string;
  /** The -32007 message of interface.md's Errors table for this method. */
  unavailableMessage: string;
  /** Pure: positional params -> parsed params, or throws RpcError -32602. */
  parse(params: unknown): P;
  run(ctx: MethodContext, p: P): Promise<unknown>;
  /**
   * Answers without the views (getHealth, getVersion, the read-only refusals): no -32007 while behind, and
   * `ctx.state` is not read first (it holds no heads for them).
   */
  answersWhileBehind?: boolean;
  /**
   * Answers from the head cache (head.ts, api/head/) without a ClickHouse query and whatever the views' lag, or
   * HEAD_MISS when the cache does not hold what the answer needs. Must answer exactly what `run` answers once
   * the views hold the same slots (api/jsonrpc/head-cache.int.test.ts compares them byte for byte).
   */
  fromHead?(h: HeadContext, p: P): unknown;
}

/** Type-erased method, for the registry. */
export type AnyMethod = Method<unknown>;

export const defineMethod = <P>(m: Method<P>): AnyMethod => m;

/** A method answered at once with `error`, whatever the params and however far behind the views are
 * (methods/readOnly.ts, methods/notServed.ts). */
export const refusedMethod = (name: string, error: () => Error): AnyMethod =>
  defineMethod<null>({
    name,
    unavailableMessage: '',
    answersWhileBehind: true,
    parse: () => null,
    run: async () => {
      throw error();
    },
  });

/**
 * The slot an answer at `commitment` is computed at, after the minContextSlot check: -32016 with the
 * context slot when the views have not reached it.
 */
export function contextSlot(m: { unavailableMessage: string }, state: ViewsState, commitment: Commitment, minContextSlot?: bigint): bigint {
  const slot = state.head[commitment];
  if (slot === undefined) throw unavailable(m.unavailableMessage);
  if (minContextSlot !== undefined && slot < minContextSlot) throw minContextSlotNotReached(slot);
  return slot;
}

/** `withContext: true` wrapping. */
export const withContext = (slot: bigint, apiVersion: string, value: unknown): unknown => ({
  context: { slot: u64Json(slot), apiVersion },
  value,
});

/** The state handed to methods that answer without the views. */
export const NO_STATE: ViewsState = Object.freeze({
  head: { processed: undefined, confirmed: undefined, finalized: undefined },
  height: { processed: undefined, confirmed: undefined, finalized: undefined },
  oldestBlock: undefined,
});
