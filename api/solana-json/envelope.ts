// The JSON-RPC 2.0 envelope, pure: body text -> requests, and results/errors -> response objects.
// Follows Agave's server (jsonrpc-core): a request object with members other than jsonrpc, id, method
// and params is invalid; `params` may be absent or null (no params); a request without `id` is a
// notification and gets no answer.
import { describeValue } from '../../platform/describe-value.js';
import { RpcError, invalidRequest, parseError } from './errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

export type Id = number | string | null;

export type Entry =
  | { kind: 'call'; id: Id; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'invalid'; id: Id; error: RpcError };

export type Body =
  | { kind: 'single'; entry: Entry }
  | { kind: 'batch'; entries: Entry[] }
  /** The whole body is answered with this one error response (parse error, empty or oversized batch). */
  | { kind: 'fail'; response: ErrorResponse };

export interface SuccessResponse {
  jsonrpc: '2.0';
  result: unknown;
  id: Id;
}
export interface ErrorResponse {
  jsonrpc: '2.0';
  error: { code: number; message: string; data?: unknown };
  id: Id;
}
export type Response = SuccessResponse | ErrorResponse;

const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

const isId = (v: unknown): v is Id => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Classifies one request object of a body or batch. */
export function classify(raw: unknown): Entry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { kind: 'invalid', id: null, error: invalidRequest('a request must be a JSON object') };
  }
  const o = raw as Record<string, unknown>;
  const hasId = Object.hasOwn(o, 'id');
  const id: Id = hasId && isId(o.id) ? o.id : null;
  const bad = (why: string): Entry => ({ kind: 'invalid', id, error: invalidRequest(why) });
  if (hasId && !isId(o.id)) return bad('id must be a number, a string or null');
  const extra = Object.keys(o).find((k) => !MEMBERS.has(k));
  if (extra !== undefined) return bad(`unknown member ${describeValue(extra)}`);
  if (o.jsonrpc !== '2.0') return bad('jsonrpc must be "2.0"');
  if (typeof o.method !== 'string') return bad('method must be a string');
  const params = o.params;
  if (params !== undefined && params !== null && typeof params !== 'object') {
    return bad('params must be an array');
  }
  if (!hasId) return { kind: 'notification', method: o.method, params };
  return { kind: 'call', id, method: o.method, params };
}

/** Parses a request body: a single request or a batch of at most `maxBatch`, nested at most MAX_JSON_DEPTH deep. */
export function parseBody(text: string, maxBatch: number): Body {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    const why = `JSON nested more than ${MAX_JSON_DEPTH} levels deep (the limit of Agave's parser, serde_json's recursion limit)`;
    return { kind: 'fail', response: errorResponse(null, parseError(why)) };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'fail', response: errorResponse(null, parseError()) };
  }
  if (Array.isArray(raw)) {
    if (raw.length === 0) return { kind: 'fail', response: errorResponse(null, invalidRequest('empty batch')) };
    if (raw.length > maxBatch) {
      return {
        kind: 'fail',
        response: errorResponse(null, invalidRequest(`batch of ${raw.length} requests; at most ${maxBatch} allowed`)),
      };
    }
    return { kind: 'batch', entries: raw.map(classify) };
  }
  return { kind: 'single', entry: classify(raw) };
}

export const resultResponse = (id: Id, result: unknown): SuccessResponse => ({ jsonrpc: '2.0', result, id });

export function errorResponse(id: Id, e: RpcError): ErrorResponse {
  const error: ErrorResponse['error'] = { code: e.code, message: e.message };
  if (e.data !== undefined) error.data = e.data;
  return { jsonrpc: '2.0', error, id };
}
