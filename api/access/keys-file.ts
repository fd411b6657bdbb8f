// The keys file (issue 36): JSON, one object with a `keys` list; each key by the SHA-256 of its secret (never the
// secret itself), an id (the label of its metrics and usage records) and its limits. Pure: text in, validated keys
// out, or an error naming the file, the entry and the field. Unknown fields are errors (a misspelt limit must not
// silently mean "unlimited"). Format and meaning: api/access/README.md.

export const INTERFACES = ['stream', 'geyser', 'jsonrpc', 'pubsub'] as const;
/** The four ways in: gRPC stream.Stream, gRPC geyser.Geyser, JSON-RPC over HTTP, PubSub over WebSocket. */
export type AccessInterface = (typeof INTERFACES)[number];

/** Per-key limits; an absent one is unlimited (the process-wide limits still apply). */
export interface KeyLimits {
  /** gRPC Subscribe streams open at once (stream.Stream and geyser.Geyser together). */
  readonly streams?: number;
  /** PubSub WebSocket connections open at once. */
  readonly connections?: number;
  /** Named filters in one gRPC Subscribe request (all kinds together); subscriptions on one PubSub connection. */
  readonly filtersPerStream?: number;
  /** Account keys in one gRPC Subscribe request (every key list of every filter together). */
  readonly keysPerStream?: number;
  /** How far back a from_slot may reach: at most this many slots behind the newest slot (0: no replay). */
  readonly replaySlots?: number;
  /** JSON-RPC requests per second (a batch counts each request), a token bucket refilled at this rate. */
  readonly rpcPerSecond?: number;
  /** The bucket's size: requests that may come at once after a quiet time (default: rpcPerSecond). */
  readonly rpcBurst?: number;
  /** Bytes per second the key's streams (gRPC and PubSub) may send, over one second (one message may overdraw). */
  readonly streamBytesPerSecond?: number;
}

export const LIMIT_NAMES: readonly (keyof KeyLimits)[] = [
  'streams',
  'connections',
  'filtersPerStream',
  'keysPerStream',
  'replaySlots',
  'rpcPerSecond',
  'rpcBurst',
  'streamBytesPerSecond',
];

export interface KeyEntry {
  readonly id: string;
  /** The 32-byte SHA-256 digest of the key as clients send it. */
  readonly sha256: Buffer;
  readonly interfaces: ReadonlySet<AccessInterface>;
  readonly limits: KeyLimits;
}

export class KeysFileError extends Error {
  override name = 'KeysFileError';
}

const ID = /^[A-Za-z0-9._:-]{1,64}$/;
const HEX_DIGEST = /^[0-9a-f]{64}$/i;
const ENTRY_FIELDS = new Set(['id', 'sha256', 'interfaces', 'limits', 'note']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function limitsOf(v: unknown, where: string): KeyLimits {
  if (v === undefined) return {};
  if (!isObject(v)) throw new KeysFileError(`${where}.limits: must be an object`);
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(v)) {
    if (!(LIMIT_NAMES as readonly string[]).includes(name))
      throw new KeysFileError(`${where}.limits.${name}: unknown limit (known: ${LIMIT_NAMES.join(', ')})`);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      throw new KeysFileError(`${where}.limits.${name}: must be a whole number >= 0 (got ${JSON.stringify(value)})`);
    out[name] = value;
  }
  return out;
}

function interfacesOf(v: unknown, where: string): ReadonlySet<AccessInterface> {
  if (v === undefined) return new Set(INTERFACES);
  if (!Array.isArray(v)) throw new KeysFileError(`${where}.interfaces: must be a list of ${INTERFACES.join(', ')}`);
  const out = new Set<AccessInterface>();
  for (const name of v) {
    if (!(INTERFACES as readonly unknown[]).includes(name))
      throw new KeysFileError(`${where}.interfaces: unknown interface ${JSON.stringify(name)} (known: ${INTERFACES.join(', ')})`);
    out.add(name as AccessInterface);
  }
  return out;
}

/** Parses and checks a keys file's text; `origin` (its path) prefixes every error. */
export function parseKeysFile(text: string, origin: string): KeyEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new KeysFileError(`${origin}: not JSON: ${(err as Error).message}`);
  }
  if (!isObject(doc) || !Array.isArray(doc.keys)) throw new KeysFileError(`${origin}: must be an object with a "keys" list`);
  for (const field of Object.keys(doc)) if (field !== 'keys') throw new KeysFileError(`${origin}: unknown field ${JSON.stringify(field)}`);
  const ids = new Set<string>();
  const digests = new Set<string>();
  return doc.keys.map((raw: unknown, i): KeyEntry => {
    const where = `${origin}: keys[${i}]`;
    if (!isObject(raw)) throw new KeysFileError(`${where}: must be an object`);
    for (const field of Object.keys(raw))
      if (!ENTRY_FIELDS.has(field)) throw new KeysFileError(`${where}: unknown field ${JSON.stringify(field)}`);
    const { id, sha256 } = raw;
    if (typeof id !== 'string' || !ID.test(id))
      throw new KeysFileError(`${where}.id: must be 1-64 of A-Z a-z 0-9 . _ : - (got ${JSON.stringify(id)})`);
    if (typeof sha256 !== 'string' || !HEX_DIGEST.test(sha256))
      throw new KeysFileError(`${where}.sha256: must be the 64 hex digits of the key's SHA-256 (e.g. printf %s "$KEY" | sha256sum)`);
    const hex = sha256.toLowerCase();
    if (ids.has(id)) throw new KeysFileError(`${where}.id: ${JSON.stringify(id)} appears twice`);
    if (digests.has(hex)) throw new KeysFileError(`${where}.sha256: the same key appears twice`);
    ids.add(id);
    digests.add(hex);
    return { id, sha256: Buffer.from(hex, 'hex'), interfaces: interfacesOf(raw.interfaces, where), limits: limitsOf(raw.limits, where) };
  });
}
