// The one access check of every interface (issue 36): which key a request presents, whether it may use the
// interface, and the key's limits and usage. Pure logic on an injected clock: the transports only hand over the
// presented key (as their clients send it) and map a Denial to their own convention (gRPC status, HTTP status
// with Retry-After, JSON-RPC error); nothing here knows a transport.
//
// Three modes: open (no keys file, no token: every request is the tenant `anonymous`, unlimited), the shared
// token of --auth-token (the tenant `token`, unlimited, as before keys existed), and keys from the keys file
// (each its own tenant, by id). Token and keys work side by side.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AccessInterface, KeyEntry, KeyLimits } from './keys-file.js';
import { TokenBucket } from './token-bucket.js';

/** How a transport answers: unauthenticated (no or unknown key: gRPC UNAUTHENTICATED, HTTP 401), forbidden (the
 * key may not do this: PERMISSION_DENIED, 403), exhausted (over a limit: RESOURCE_EXHAUSTED, 429). */
export type DenialKind = 'unauthenticated' | 'forbidden' | 'exhausted';

export interface Denial {
  readonly kind: DenialKind;
  /** 'missing', 'invalid', 'revoked', 'interface', or the name of the limit (KeyLimits). */
  readonly reason: string;
  readonly message: string;
  /** exhausted by a rate: seconds until a retry can pass (Retry-After). */
  readonly retryAfterS?: number;
}

export type Admission = { readonly ok: true; readonly tenant: Tenant } | { readonly ok: false; readonly denial: Denial };

/** What a Subscribe request asks for, as far as the limits go. */
export interface SubscriptionShape {
  filters: number;
  keys: number;
  fromSlot?: bigint;
  /** The newest slot the process has seen; undefined: not known yet (the reach cannot be judged and is not). */
  tip?: bigint;
}

export interface Usage {
  requests: number;
  updates: number;
  bytes: number;
}

/** One open stream or connection of a tenant; release it once when it ends. */
export interface Lease {
  release(): void;
}

export const ANONYMOUS = 'anonymous';
export const SHARED_TOKEN = 'token';

const sha256 = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Usage by interface, cumulative since the tenant was made (the usage records and metrics take differences). */
const emptyUsage = (): Record<AccessInterface, Usage> => ({
  stream: { requests: 0, updates: 0, bytes: 0 },
  geyser: { requests: 0, updates: 0, bytes: 0 },
  jsonrpc: { requests: 0, updates: 0, bytes: 0 },
  pubsub: { requests: 0, updates: 0, bytes: 0 },
});

/**
 * One key's state: its current limits (replaced on reload, the counts kept), open streams and connections, its
 * rate buckets and usage. Invariant: `open[i]` is the number of unreleased leases of interface i; `leases` holds
 * exactly those, with what each does when the key is revoked.
 */
export class Tenant {
  readonly usage = emptyUsage();
  readonly open: Record<AccessInterface, number> = { stream: 0, geyser: 0, jsonrpc: 0, pubsub: 0 };
  /** Times a limit or the interface list refused this key, by reason. */
  readonly refusals = new Map<string, number>();
  private readonly leases = new Map<Lease, (message: string) => void>();
  private rpc: TokenBucket | undefined;
  private bytes: TokenBucket | undefined;
  private revokedFlag = false;

  constructor(
    readonly id: string,
    private entry: KeyEntry | undefined,
    private readonly now: () => number,
  ) {
    this.buckets();
  }

  get limits(): KeyLimits {
    return this.entry?.limits ?? {};
  }

  get revoked(): boolean {
    return this.revokedFlag;
  }

  /** New limits from a reload: counts and usage stay; buckets are rebuilt only when their rate changed. */
  update(entry: KeyEntry): void {
    this.entry = entry;
    this.buckets();
  }

  private buckets(): void {
    const l = this.limits;
    const burst = l.rpcBurst ?? l.rpcPerSecond;
    if (l.rpcPerSecond === undefined) this.rpc = undefined;
    else if (this.rpc?.rate !== l.rpcPerSecond || this.rpc.capacity !== burst)
      this.rpc = new TokenBucket(l.rpcPerSecond, burst!, this.now());
    const b = l.streamBytesPerSecond;
    if (b === undefined) this.bytes = undefined;
    else if (this.bytes?.rate !== b) this.bytes = new TokenBucket(b, b, this.now());
  }

  allows(iface: AccessInterface): boolean {
    return this.entry === undefined || this.entry.interfaces.has(iface);
  }

  private refuse(kind: DenialKind, reason: string, message: string, retryAfterS?: number): Denial {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
    return { kind, reason, message, ...(retryAfterS !== undefined ? { retryAfterS } : {}) };
  }

  /** A stream (gRPC) or connection (PubSub) opens: a lease, or the limit it would exceed. `onRevoke` ends it if the
   * key is revoked while it is open. */
  openStream(iface: AccessInterface, onRevoke: (message: string) => void): Lease | Denial {
    const pubsub = iface === 'pubsub';
    const limit = pubsub ? this.limits.connections : this.limits.streams;
    const current = pubsub ? this.open.pubsub : this.open.stream + this.open.geyser;
    if (limit !== undefined && current >= limit) {
      const what = pubsub ? 'PubSub connections' : 'gRPC streams';
      return this.refuse(
        'exhausted',
        pubsub ? 'connections' : 'streams',
        `API key ${this.id}: at most ${limit} ${what} open at once (limit ${pubsub ? 'connections' : 'streams'})`,
      );
    }
    this.open[iface]++;
    let released = false;
    const lease: Lease = {
      release: () => {
        if (released) return;
        released = true;
        this.open[iface]--;
        this.leases.delete(lease);
      },
    };
    this.leases.set(lease, onRevoke);
    return lease;
  }

  /** A Subscribe request against the per-stream limits; undefined: allowed. */
  checkSubscription(s: SubscriptionShape): Denial | undefined {
    const l = this.limits;
    if (l.filtersPerStream !== undefined && s.filters > l.filtersPerStream)
      return this.refuse(
        'exhausted',
        'filtersPerStream',
        `API key ${this.id}: ${s.filters} filters in one stream, at most ${l.filtersPerStream} (limit filtersPerStream)`,
      );
    if (l.keysPerStream !== undefined && s.keys > l.keysPerStream)
      return this.refuse(
        'exhausted',
        'keysPerStream',
        `API key ${this.id}: ${s.keys} account keys in one stream, at most ${l.keysPerStream} (limit keysPerStream)`,
      );
    if (l.replaySlots !== undefined && s.fromSlot !== undefined && s.tip !== undefined && s.fromSlot < s.tip - BigInt(l.replaySlots)) {
      return this.refuse(
        'forbidden',
        'replaySlots',
        `API key ${this.id}: from_slot ${s.fromSlot} is ${s.tip - s.fromSlot} slots behind the newest slot ${s.tip}; this key may reach back at most ${l.replaySlots} (limit replaySlots)`,
      );
    }
    return undefined;
  }

  /** PubSub: one more subscription on a connection that holds `held`. */
  checkSubscriptionCount(held: number): Denial | undefined {
    const l = this.limits.filtersPerStream;
    if (l === undefined || held < l) return undefined;
    return this.refuse(
      'exhausted',
      'filtersPerStream',
      `API key ${this.id}: at most ${l} subscriptions on one connection (limit filtersPerStream)`,
    );
  }

  /** `n` requests arrive (a JSON-RPC batch counts each; a gRPC call or PubSub request counts one): counted, and
   * for JSON-RPC taken from the rate bucket. */
  request(iface: AccessInterface, n = 1): Denial | undefined {
    if (iface === 'jsonrpc' && this.rpc !== undefined) {
      const waitMs = this.rpc.take(n, this.now());
      if (waitMs > 0) {
        const rate = this.limits.rpcPerSecond!;
        const retryAfterS = Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs / 1000)) : undefined;
        const why = Number.isFinite(waitMs)
          ? `over ${rate} JSON-RPC requests per second`
          : `a batch of ${n} requests is more than the ${this.rpc.capacity} this key may send at once`;
        return this.refuse('exhausted', 'rpcPerSecond', `API key ${this.id}: ${why} (limit rpcPerSecond)`, retryAfterS);
      }
    }
    this.usage[iface].requests += n;
    return undefined;
  }

  /** A stream sent `updates` updates in `bytes` bytes: counted; a Denial once the key is over its byte rate (the
   * stream is then ended; what was sent is counted). */
  sent(iface: AccessInterface, updates: number, bytes: number): Denial | undefined {
    const u = this.usage[iface];
    u.updates += updates;
    u.bytes += bytes;
    if (this.bytes !== undefined && !this.bytes.overdraw(bytes, this.now())) {
      return this.refuse(
        'exhausted',
        'streamBytesPerSecond',
        `API key ${this.id}: streams over ${this.bytes.rate} bytes per second (limit streamBytesPerSecond)`,
      );
    }
    return undefined;
  }

  /** Bytes of an answer (JSON-RPC): counted, never limited (the request rate is). */
  answered(iface: AccessInterface, bytes: number): void {
    this.usage[iface].bytes += bytes;
  }

  /** The key left the keys file: every open stream and connection is ended with a message saying so. */
  revoke(): void {
    this.revokedFlag = true;
    const ends = [...this.leases.values()];
    for (const end of ends) end(`API key ${this.id} was revoked`);
  }
}

export interface AccessOptions {
  keys?: readonly KeyEntry[];
  /** The shared token of --auth-token ('' or absent: none). */
  sharedToken?: string;
  now?: () => number;
}

export class AccessControl {
  /** By hex SHA-256 of the key. */
  private byDigest = new Map<string, KeyEntry>();
  /** Every tenant ever admitted or configured, by id (revoked ones stay for their last usage record). */
  private readonly tenants = new Map<string, Tenant>();
  private readonly token: Buffer | undefined;
  private readonly now: () => number;
  private keysLoaded: boolean;
  /** Requests refused before any tenant was known: no key, or one no tenant has. */
  readonly unauthenticated = { missing: 0, invalid: 0 };

  constructor(o: AccessOptions = {}) {
    this.now = o.now ?? Date.now;
    this.token = o.sharedToken ? sha256(o.sharedToken) : undefined;
    this.replace(o.keys ?? []);
    this.keysLoaded = o.keys !== undefined;
  }

  /** No token and no keys file: every request passes as `anonymous`. */
  get open(): boolean {
    return this.token === undefined && !this.keysLoaded;
  }

  /** A reload: new keys and limits apply at once; open streams of kept keys stay; removed keys are revoked. */
  replace(keys: readonly KeyEntry[]): { added: string[]; removed: string[] } {
    this.keysLoaded = true;
    const ids = new Set(keys.map((k) => k.id));
    const added: string[] = [];
    const removed: string[] = [];
    this.byDigest = new Map(keys.map((k) => [k.sha256.toString('hex'), k]));
    for (const k of keys) {
      const t = this.tenants.get(k.id);
      if (t === undefined || t.revoked) {
        this.tenants.set(k.id, new Tenant(k.id, k, this.now));
        added.push(k.id);
      } else t.update(k);
    }
    for (const t of this.tenants.values()) {
      if (t.id === ANONYMOUS || t.id === SHARED_TOKEN || t.revoked || ids.has(t.id)) continue;
      t.revoke();
      removed.push(t.id);
    }
    return { added, removed };
  }

  /**
   * Which tenant a presented key is, and whether it may use `iface`. Constant time in the key: the presented key is
   * hashed first and only its SHA-256 digest is looked up and compared. The map lookup's timing depends on the
   * digest, not on the secret: learning how much of a stored digest a guess's digest matches tells nothing about
   * the key itself (that would take a SHA-256 preimage), and the final comparison is timingSafeEqual on the two
   * digests. The shared token is compared the same way, always, so a key and the token cost the same.
   */
  admit(presented: string | undefined, iface: AccessInterface): Admission {
    if (this.open) return this.allow(this.tenant(ANONYMOUS), iface);
    if (presented === undefined || presented === '') {
      this.unauthenticated.missing++;
      return { ok: false, denial: { kind: 'unauthenticated', reason: 'missing', message: 'missing API key' } };
    }
    const digest = sha256(presented);
    const tokenMatch = this.token !== undefined && timingSafeEqual(digest, this.token);
    const entry = this.byDigest.get(digest.toString('hex'));
    if (entry !== undefined && timingSafeEqual(digest, entry.sha256)) return this.allow(this.tenants.get(entry.id)!, iface);
    if (tokenMatch) return this.allow(this.tenant(SHARED_TOKEN), iface);
    this.unauthenticated.invalid++;
    return { ok: false, denial: { kind: 'unauthenticated', reason: 'invalid', message: 'invalid API key' } };
  }

  private allow(t: Tenant, iface: AccessInterface): Admission {
    if (t.allows(iface)) return { ok: true, tenant: t };
    t.refusals.set('interface', (t.refusals.get('interface') ?? 0) + 1);
    return { ok: false, denial: { kind: 'forbidden', reason: 'interface', message: `API key ${t.id} may not use ${iface}` } };
  }

  private tenant(id: string): Tenant {
    let t = this.tenants.get(id);
    if (t === undefined) this.tenants.set(id, (t = new Tenant(id, undefined, this.now)));
    return t;
  }

  /** Every tenant (configured keys, revoked ones, the token and anonymous once used). */
  all(): Iterable<Tenant> {
    return this.tenants.values();
  }

  /** The configured (unrevoked) key ids. */
  configured(): string[] {
    return [...this.byDigest.values()].map((k) => k.id);
  }
}
