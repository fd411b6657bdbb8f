// Where a key arrives, the way each client already sends one (pure). HTTP (JSON-RPC, the PubSub upgrade):
// `Authorization: Bearer <key>` or `x-token: <key>` (as Yellowstone's), else `?api-key=<key>` in the URL (Helius's
// URLs; browsers and web3.js cannot set headers on a WebSocket), else `?token=` (this project's PubSub before keys).
// A header wins over the query. gRPC metadata is read by the gRPC host with the same header rules.

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** A Bearer credential of an Authorization value, if it is one. */
export function bearer(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(value.trim());
  return m ? m[1]!.trim() : undefined;
}

/** The key of the headers (lower-case names as Node gives them). */
export function headerKey(headers: Headers): string | undefined {
  const auth = headers.authorization;
  const fromAuth = typeof auth === 'string' ? bearer(auth) : undefined;
  if (fromAuth !== undefined) return fromAuth;
  const x = headers['x-token'];
  return typeof x === 'string' ? x : undefined;
}

/** The key of an HTTP request: a header, else `api-key` or `token` in the query of `url` (a request target). */
export function requestKey(headers: Headers, url: string | undefined): string | undefined {
  const fromHeader = headerKey(headers);
  if (fromHeader !== undefined || url === undefined) return fromHeader;
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const query = new URLSearchParams(url.slice(q + 1));
  return query.get('api-key') ?? query.get('token') ?? undefined;
}
