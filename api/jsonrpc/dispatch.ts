// From a request body to the response text: envelope, method lookup, params, freshness (-32007), run.
// Every failure becomes a JSON-RPC error here; nothing below the envelope ever reaches HTTP as a 5xx.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from 'pino';
import type { QueryAdmission } from '../views/admission.js';
import { errorResponse, parseBody, resultResponse, type Entry, type Response } from '../solana-json/envelope.js';
import { RpcError, internalError, methodNotFound, unavailable } from '../solana-json/errors.js';
import { toJson } from '../solana-json/json.js';
import { NO_STATE, type MethodContext, type NodeFacts } from './method.js';
import { AdmittedQueries } from '../views/query.js';
import { METHODS } from './methods/index.js';
import { rpcAnswers, rpcDuration } from './metrics.js';
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
  apiVersion: string;
  log: Logger;
  /** getIdentity's and getGenesisHash's configured answers (default: none). */
  node?: NodeFacts;
}

/** Body text → response text; `client` names whose share of the ClickHouse queries the requests use. */
export type Dispatch = (body: string, client: string) => Promise<string | undefined>;

// Metric children per label set, so a call does not hash its labels twice.
const durations = new Map<string, { observe(v: number): void }>();
const answers = new Map<string, { inc(): void }>();
const durationOf = (method: string) => durations.get(method) ?? durations.set(method, rpcDuration.labels(method)).get(method)!;
const answersOf = (method: string, code: string) => {
  const k = `${method}\u0000${code}`;
  return answers.get(k) ?? answers.set(k, rpcAnswers.labels(method, code)).get(k)!;
};

export function createDispatch(o: DispatchOptions): Dispatch {
  const health = async (): Promise<Health> => {
    try {
      return healthOf(await o.state.get(), o.chainTip(), o.maxSlotLag);
    } catch (err) {
      o.log.warn({ err }, 'JSON-RPC getHealth: views state unreadable');
      return { kind: 'unknown' };
    }
  };

  async function call(e: Extract<Entry, { kind: 'call' }>, client: string): Promise<Response> {
    const started = performance.now();
    const method = METHODS.get(e.method);
    const label = method ? method.name : 'other';
    let response: Response;
    try {
      if (!method) throw methodNotFound();
      const params = method.parse(e.params);
      let state = NO_STATE;
      if (!method.answersWhileBehind) {
        state = await o.state.get();
        if (freshness(state, o.chainTip(), o.maxSlotLag) === 'behind') throw unavailable(method.unavailableMessage);
      }
      const ch = new AdmittedQueries(o.ch, o.admission, client);
      const ctx: MethodContext = { ch, db: o.database, state, apiVersion: o.apiVersion, health, chainTip: o.chainTip, node: o.node ?? {} };
      response = resultResponse(e.id, await method.run(ctx, params));
    } catch (err) {
      if (err instanceof RpcError) {
        response = errorResponse(e.id, err);
      } else {
        // Internals (ClickHouse messages, stack traces) go to the log, never to the client.
        o.log.error({ err, method: e.method }, 'JSON-RPC call failed');
        response = errorResponse(e.id, internalError());
      }
    }
    durationOf(label).observe((performance.now() - started) / 1000);
    answersOf(label, 'error' in response ? String(response.error.code) : '0').inc();
    return response;
  }

  // Notifications get no answer; the methods are read-only, so they are not run at all.
  const answer = (e: Entry, client: string): Promise<Response> | undefined =>
    e.kind === 'call' ? call(e, client) : e.kind === 'invalid' ? Promise.resolve(errorResponse(e.id, e.error)) : undefined;

  return async (text, client) => {
    const body = parseBody(text, o.maxBatch);
    if (body.kind === 'fail') return toJson(body.response);
    if (body.kind === 'single') {
      const r = answer(body.entry, client);
      return r === undefined ? undefined : toJson(await r);
    }
    const answers = (await Promise.all(body.entries.map((e) => answer(e, client)))).filter((r): r is Response => r !== undefined);
    return answers.length === 0 ? undefined : toJson(answers);
  };
}
