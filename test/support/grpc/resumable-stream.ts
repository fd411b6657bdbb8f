// A Subscribe stream that survives cuts the way a careful client does: it keeps what it received per
// slot, and on resume drops what it holds of slots >= the resume slot and subscribes again with
// `from_slot` = that slot, so the replay delivers those slots whole. Every update is reduced to its
// identity (behaviour.md "Equality in tests": first signature for transactions, (pubkey, write_version)
// for account writes) and its slot.
// A stream refused at once with RESOURCE_EXHAUSTED (the api's bound on concurrent from_slot replays,
// api/live/replay-limit.ts, whose message says "retry later") is asked again after a pause with the same
// from_slot, as real clients do (LaserStream's SDK reconnects after a delay): the refusal came before any
// update, so nothing is dropped or counted twice, and the stream stays open (not broken) while it waits.
import * as grpc from '@grpc/grpc-js';
import type { Msg } from './clients.js';

export interface Received {
  id: string;
  slot: bigint;
}

export const txIdentity = (firstSignature: Uint8Array): string => `tx:${Buffer.from(firstSignature).toString('hex')}`;
export const accountIdentity = (pubkey: Uint8Array, writeVersion: bigint | string): string =>
  `acc:${Buffer.from(pubkey).toString('hex')}:${String(writeVersion)}`;

/** Identity and slot of a transaction or account update; undefined for pings and pongs. */
export function identityOf(u: Msg): Received | undefined {
  if (u.update_oneof === 'transaction') return { id: txIdentity(u.transaction.transaction.signature), slot: BigInt(u.transaction.slot) };
  if (u.update_oneof === 'account') {
    const a = u.account.account;
    return { id: accountIdentity(a.pubkey, a.write_version), slot: BigInt(u.account.slot) };
  }
  return undefined;
}

export interface Session {
  fromSlot: bigint;
  /** Index in `received` of the session's first update. */
  first: number;
  received: number;
  /** Why it ended: a cut of ours, or the status the server ended it with. */
  endedBy?: string;
  /** Updates of slots >= the next session's from_slot, dropped when it started. */
  dropped?: number;
  /** Times the server refused the subscription with RESOURCE_EXHAUSTED before it was served. */
  refused: number;
}

/** Pause before asking again after a RESOURCE_EXHAUSTED refusal: doubles from the first, up to the last. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 4_000;

export class ResumableStream {
  /** Updates kept across sessions. */
  received: Received[] = [];
  readonly sessions: Session[] = [];
  private call: grpc.ClientDuplexStream<Msg, Msg> | undefined;
  /** Pending retry of a refused subscription. */
  private retry: NodeJS.Timeout | undefined;
  /** The server ended or failed the current session (a cut we did not make), with its status. */
  broken: string | undefined;

  constructor(
    readonly name: string,
    private readonly client: grpc.Client & Record<string, Msg>,
    /** The SubscribeRequest without from_slot. */
    readonly request: Msg,
  ) {}

  /** A session is open, or waits to ask again after a refusal. */
  get open(): boolean {
    return this.call !== undefined || this.retry !== undefined;
  }

  /** Subscribes with from_slot, first dropping what is held of slots >= fromSlot. */
  start(fromSlot: bigint): void {
    if (this.open) throw new Error(`${this.name}: a session is still open`);
    const kept = this.received.filter((r) => r.slot < fromSlot);
    const last = this.sessions.at(-1);
    if (last) last.dropped = this.received.length - kept.length;
    this.received = kept;
    const session: Session = { fromSlot, first: kept.length, received: 0, refused: 0 };
    this.sessions.push(session);
    this.broken = undefined;
    this.subscribe(session);
  }

  private subscribe(session: Session): void {
    const call: grpc.ClientDuplexStream<Msg, Msg> = this.client.Subscribe();
    this.call = call;
    call.on('data', (u: Msg) => {
      if (this.call !== call) return; // a cut session receives nothing more
      const r = identityOf(u);
      if (!r) return;
      this.received.push(r);
      session.received++;
    });
    const ended = (why: string): void => {
      if (this.call !== call) return;
      this.call = undefined;
      session.endedBy = why;
      this.broken = why;
    };
    call.on('error', (e: grpc.ServiceError) => {
      if (e.code === grpc.status.RESOURCE_EXHAUSTED && session.received === 0 && this.call === call) {
        this.call = undefined;
        session.refused++;
        const pause = Math.min(RETRY_FIRST_MS * 2 ** (session.refused - 1), RETRY_MAX_MS);
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.subscribe(session);
        }, pause);
        return;
      }
      ended(`${grpc.status[e.code] ?? e.code}: ${e.details}`);
    });
    call.on('end', () => ended('the server ended the stream'));
    call.write({ ...this.request, from_slot: session.fromSlot.toString() });
  }

  /** A cut on the client's side (a dropped connection): nothing received after it counts. */
  cut(why = 'cut by the client'): void {
    if (this.retry) {
      clearTimeout(this.retry);
      this.retry = undefined;
      this.sessions.at(-1)!.endedBy = why;
    }
    const call = this.call;
    if (!call) return;
    this.call = undefined;
    this.sessions.at(-1)!.endedBy = why;
    call.on('error', () => undefined);
    call.cancel();
  }

  /** What the newest session received (all of it, unless a later start dropped some). */
  sessionUpdates(): Received[] {
    return this.received.slice(this.sessions.at(-1)?.first ?? 0);
  }

  close(): void {
    this.cut('closed');
  }
}
