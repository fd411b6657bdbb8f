// The PubSub token (behaviour.md "PubSub (WebSocket)"): a header as for JSON-RPC (`Authorization: Bearer`
// or `x-token`), or `?token=` in the URL, because browsers and web3.js cannot set headers on a WebSocket.
import type { IncomingHttpHeaders } from 'node:http';
import { presentedToken } from '../solana-json/auth.js';

/** Pure: the token an upgrade request carries; a header wins over the query. */
export function upgradeToken(headers: IncomingHttpHeaders, url: string | undefined): string | undefined {
  const fromHeader = presentedToken(headers);
  if (fromHeader !== undefined) return fromHeader;
  if (url === undefined) return undefined;
  let query: URLSearchParams;
  try {
    query = new URL(url, 'ws://localhost').searchParams;
  } catch {
    return undefined;
  }
  return query.get('token') ?? undefined;
}
