// From a request body to the response text: envelope, method lookup, params, freshness (-32007), run.
// Every failure becomes a JSON-RPC error here; nothing below the envelope ever reaches HTTP as a 5xx.
import type { UpstreamVersion } from '../../schemas/codec.js';
import { nodeVersionOf } from './node-version.js';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from 'pino';
import type { QueryAdmission } from '../views/admission.js';
import { errorResponse, parseBody, resultResponse, type Entry, type Response } from '../solana-json/envelope.js';
import { RpcError, internalError, methodNotFound, unavailable } from '../solana-json/errors.js';
import { RawJson, toJson } from '../solana-json/json.js';
import { NO_STATE, StreamedResult, type AnyMethod, type MethodContext, type MethodLimits, type NodeFacts } from './method.js';
import { AdmittedQueries } from '../views/query.js';
import { METHODS } from './methods/index.js';
import { headAnswers, rpcAnswers, rpcDuration } from './metrics.js';
import type { HeadCache } from '../head/head-cache.js';
import { HEAD_MISS, headIsCurrent, headState, type HeadContext } from './head.js';
import { freshness, healthOf, type Health, type ViewsStateCache } from '../views/state.js';

export interface DispatchOptions {
  ch: ClickHouseClient;
  database: string;
  /** Every method's queries pass it, per client (the views state reads `ch` directly). */
  admission: QueryAdmission;
  state: ViewsStateCache;
  chainTip: () => bigint | undefined;
  maxSlotLag: number;
  maxBatch: number;
  /** The upstream's version as the live tail last read it (undefined: not known; the default answers). */
  upstreamVersion: () => UpstreamVersion | undefined;
  limits: MethodLimits;
  log: Logger;
  /** getIdentity's and getGenesisHash's configured answers (default: none). */
  node?: NodeFacts;
  /** The head cache fed by the process's live read (api/head/): recent reads answer from it first. */
  head?: HeadCache;
}

/**
 * Body text → response text, or its fragments when a single call's result is streamed (StreamedResult): the
 * first fragment is read before this returns (so an error before any byte is still an error response), the
 * rest as the server sends them. `client` names whose share of the ClickHouse queries the requests use.
 */
export type Dispatch = (body: string, client: string) => Promise<string | AsyncIterable<string> | undefined>;

type Answer = Response | { kind: 'streamed'; id: Response['id']; first: string; rest: AsyncIterator<string> };

// Metric children per label set, so a call does not hash its labels twice.
const durations = new Map<string, { observe(v: number): void }>();
const answers = new Map<string, { inc(): void }>();
const durationOf = (method: string) => durations.get(method) ?? durations.set(method, rpcDuration.labels(method)).get(method)!;
const headOutcomes = new Map<string, { inc(): void }>();
const headOutcomeOf = (method: string, outcome: 'hit' | 'miss') => {
  const k = `${method}\u0000${outcome}`;
  return headOutcomes.get(k) ?? headOutcomes.set(k, headAnswers.labels(method, outcome)).get(k)!;
};
const answersOf = (method: string, code: string) => {
  const k = `${method}\u0000${code}`;
  return answers.get(k) ?? answers.set(k, rpcAnswers.labels(method, code)).get(k)!;
};

export function createDispatch(o: DispatchOptions): Dispatch {
  const d = new Dispatcher(o);
  return (text, client) => d.dispatch(text, client);
}

/** The dispatch's steps: `dispatch` (the body: one call or a batch), `answer` (one entry), `call` (a method's
 * answer, timed and counted), `fromHead` (the head cache's answer) or `runOnViews`, and `health` (getHealth). */
class Dispatcher {
  constructor(private readonly o: DispatchOptions) {}

  async dispatch(text: string, client: string): Promise<string | AsyncIterable<string> | undefined> {
    const body = parseBody(text, this.o.maxBatch);
    if (body.kind === 'fail') return toJson(body.response);
    if (body.kind === 'single') {
      const r = this.answer(body.entry, client, true);
      if (r === undefined) return undefined;
      const a = await r;
      return 'kind' in a ? streamedResponse(a) : toJson(a);
    }
    // In a batch a streamed result is joined (bounded by the method's own limit), then the batch is one text.
    const answers = (await Promise.all(body.entries.map((e) => this.answer(e, client, false)))).filter(
      (r): r is Response => r !== undefined,
    );
    return answers.length === 0 ? undefined : toJson(answers);
  }

  /** Notifications get no answer; the methods are read-only, so they are not run at all. */
  private answer(e: Entry, client: string, streaming: boolean): Promise<Answer> | undefined {
    if (e.kind === 'call') return this.call(e, client, streaming);
    return e.kind === 'invalid' ? Promise.resolve(errorResponse(e.id, e.error)) : undefined;
  }

  private readonly health = async (): Promise<Health> => {
    try {
      return healthOf(await this.o.state.get(), this.o.chainTip(), this.o.maxSlotLag);
    } catch (err) {
      this.o.log.warn({ err }, 'JSON-RPC getHealth: views state unreadable');
      return { kind: 'unknown' };
    }
  };

  private async call(e: Extract<Entry, { kind: 'call' }>, client: string, streaming: boolean): Promise<Answer> {
    const started = performance.now();
    const method = METHODS.get(e.method);
    const label = method ? method.name : 'other';
    let response: Answer;
    try {
      if (!method) throw methodNotFound();
      response = await this.resultOf(method, e, client, streaming);
    } catch (err) {
      if (err instanceof RpcError) {
        response = errorResponse(e.id, err);
      } else {
        // Internals (ClickHouse messages, stack traces) go to the log, never to the client.
        this.o.log.error({ err, method: e.method }, 'JSON-RPC call failed');
        response = errorResponse(e.id, internalError());
      }
    }
    // A streamed answer is timed to its first fragment (the rest goes at the client's pace).
    durationOf(label).observe((performance.now() - started) / 1000);
    answersOf(label, 'error' in response ? String(response.error.code) : '0').inc();
    return response;
  }

  /** The method's result as an answer: from the head cache when it has it, else from the views; a streamed result
   * is joined in a batch and starts streaming with its first fragment otherwise. */
  private async resultOf(method: AnyMethod, e: Extract<Entry, { kind: 'call' }>, client: string, streaming: boolean): Promise<Answer> {
    const params = method.parse(e.params);
    const cached = this.o.head !== undefined && method.fromHead !== undefined ? this.fromHead(method, params) : HEAD_MISS;
    const result = cached !== HEAD_MISS ? cached : await this.runOnViews(method, params, client);
    if (!(result instanceof StreamedResult)) return resultResponse(e.id, result);
    if (!streaming) return resultResponse(e.id, new RawJson(await joined(result.fragments)));
    const rest = result.fragments[Symbol.asyncIterator]();
    const first = await rest.next();
    return { kind: 'streamed', id: e.id, first: first.done ? '' : first.value, rest };
  }

  /** The method's answer from the head cache, or HEAD_MISS (counted per method). */
  private fromHead(method: AnyMethod, params: unknown): unknown {
    const head = this.o.head!;
    const state = headState(head);
    let result: unknown = HEAD_MISS;
    // The cache must not answer older than the views already do (their last state, no query).
    if (state !== undefined && headIsCurrent(state, this.o.state.peek())) {
      const h: HeadContext = { cache: head, state, apiVersion: nodeVersionOf(this.o.upstreamVersion()).solanaCore };
      try {
        result = method.fromHead!(h, params);
      } catch (err) {
        // An error the cache answers (-32016, -32004, ...) is a hit too; anything else is a fault of the cache,
        // logged, and the views answer.
        if (!(err instanceof RpcError)) this.o.log.error({ err, method: method.name }, 'JSON-RPC head cache failed; asking the views');
        else {
          headOutcomeOf(method.name, 'hit').inc();
          throw err;
        }
      }
    }
    headOutcomeOf(method.name, result === HEAD_MISS ? 'miss' : 'hit').inc();
    return result;
  }

  private async runOnViews(method: AnyMethod, params: unknown, client: string): Promise<unknown> {
    const o = this.o;
    let state = NO_STATE;
    if (!method.answersWhileBehind) {
      state = await o.state.get();
      if (freshness(state, o.chainTip(), o.maxSlotLag) === 'behind') throw unavailable(method.unavailableMessage);
    }
    const version = nodeVersionOf(o.upstreamVersion());
    const ctx: MethodContext = {
      ch: new AdmittedQueries(o.ch, o.admission, client),
      db: o.database,
      state,
      version,
      apiVersion: version.solanaCore,
      health: this.health,
      limits: o.limits,
      chainTip: o.chainTip,
      node: o.node ?? {},
    };
    return method.run(ctx, params);
  }
}

async function joined(fragments: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const f of fragments) text += f;
  return text;
}

/** The response object around a streamed result: `{"jsonrpc":"2.0","result":<fragments>,"id":<id>}`. */
async function* streamedResponse(a: Extract<Answer, { kind: 'streamed' }>): AsyncGenerator<string> {
  yield `{"jsonrpc":"2.0","result":${a.first}`;
  for (let f = await a.rest.next(); !f.done; f = await a.rest.next()) yield f.value;
  yield `,"id":${toJson(a.id)}}`;
}
