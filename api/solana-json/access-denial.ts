// An access denial (api/access/) as the HTTP interfaces answer it, JSON-RPC's requests and PubSub's upgrades
// alike: 401 (no or unknown key, with `WWW-Authenticate: Bearer`), 403 (the key may not do this), 429 (over a
// limit, with `Retry-After` when a rate decides), and a JSON-RPC error body whose message names the limit, so
// web3.js and kit show it in their error.
import type { Denial, DenialKind } from '../access/index.js';
import { errorResponse } from './envelope.js';
import { RpcError } from './errors.js';
import { toJson } from './json.js';

export const DENIAL_HTTP: Record<DenialKind, { status: number; code: number }> = {
  unauthenticated: { status: 401, code: -32401 },
  forbidden: { status: 403, code: -32403 },
  exhausted: { status: 429, code: -32429 },
};

export interface HttpDenial {
  status: number;
  headers: Record<string, string>;
  /** A JSON-RPC error response (id null). */
  body: string;
}

export function httpDenial(d: Denial): HttpDenial {
  const { status, code } = DENIAL_HTTP[d.kind];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (d.kind === 'unauthenticated') headers['www-authenticate'] = 'Bearer';
  if (d.kind === 'exhausted') headers['retry-after'] = String(d.retryAfterS ?? 1);
  const message =
    d.reason === 'missing' || d.reason === 'invalid'
      ? `${d.message} (Authorization: Bearer <key>, x-token: <key>, or ?api-key=<key>)`
      : d.message;
  return { status, headers, body: toJson(errorResponse(null, new RpcError(code, message))) };
}
