// One Subscribe stream (behaviour.md "Subscribe: stream lifecycle"):
// - each request replaces the whole filter set; a request carrying `ping` is answered with `pong{id}` and
//   changes nothing (its other fields are still validated); invalid filters end the stream with
//   INVALID_ARGUMENT "failed to create filter: <reason>";
// - live updates come from the hub (shared encodings), replayed ones from a ReplayRun when `from_slot`
//   is set; during a replay, live updates wait in a buffer and follow the history at the hand-over;
// - the commitment gate holds updates until their slot reaches the requested level;
// - the Outbound queue bounds what a slow client may owe.
import { status, type ServerDuplexStream } from '@grpc/grpc-js';
import type { Kafka } from '../../platform/kafka/index.js';
import type { Logger } from 'pino';
import type { ClickHouseClient } from '@clickhouse/client';
import { CommitmentLevel, type SubscribeRequest } from '../../proto/gen/stream.js';
import type { TopicNames } from '../../schemas/topics.js';
import type { ChainEvent } from '../../schemas/codec.js';
import {
  compileSubscribeRequest,
  matchAccount,
  matchTransaction,
  type CompiledSubscription,
  type DataSlice,
  type FilterLimits,
} from '../filters/index.js';
import { CommitmentGate } from './commitment-gate.js';
import { encodePong, sliceKey } from './encode.js';
import type { Hub, LiveSubscriber } from './hub.js';
import type { LiveTail } from './live-tail.js';
import { openStreams, slowClientCutoffs } from './metrics.js';
import { Outbound, type Outgoing } from './outbound.js';
import { planReplay, ReplayOutOfRange, ReplayRun } from './replay.js';
import { outgoingOf, PrefixCache, SharedUpdate } from './shared-update.js';

export interface SubscribeDeps {
  hub: Hub;
  tail: LiveTail;
  kafka: Kafka;
  topics: TopicNames;
  ch?: ClickHouseClient;
  database: string;
  limits: FilterLimits;
  queueSize: number;
  log: Logger;
}

let nextId = 1;

export class SubscribeSession implements LiveSubscriber {
  readonly id = nextId++;
  private readonly out: Outbound;
  private readonly prefixes = new PrefixCache();
  private slices: readonly DataSlice[] = [];
  private slicesKey = '';
  private gate: CommitmentGate<Outgoing> | undefined;
  /** Live updates that arrived while a replay runs; undefined when no replay runs. */
  private liveBuffer: Outgoing[] | undefined;
  private replay: ReplayRun | undefined;
  /** Bumped by every filter change, so a stale replay's late events are ignored. */
  private generation = 0;
  private closed = false;

  constructor(
    private readonly call: ServerDuplexStream<SubscribeRequest, Buffer>,
    private readonly d: SubscribeDeps,
  ) {
    this.out = new Outbound(call, d.queueSize, (details) => {
      slowClientCutoffs.inc();
      d.log.warn({ stream: this.id, details }, 'slow client cut off');
      this.close();
    });
    openStreams.inc({ method: 'Subscribe' });
    d.hub.addIdle(this);
    call.on('data', (req: SubscribeRequest) => this.onRequest(req));
    // A client that ends its sending side keeps receiving until it cancels: nothing to do on 'end'.
    call.on('end', () => undefined);
    call.on('cancelled', () => this.close(true));
    call.on('close', () => this.close(true));
    call.on('error', () => this.close(true));
  }

  private onRequest(req: SubscribeRequest): void {
    if (this.closed) return;
    const compiled = compileSubscribeRequest(req, this.d.limits);
    if (!compiled.ok) {
      this.out.fail(status.INVALID_ARGUMENT, `failed to create filter: ${compiled.error.message}`);
      this.close();
      return;
    }
    if (req.ping) {
      this.out.send({ slot: undefined, bytes: encodePong(req.ping.id) });
      return;
    }
    this.apply(compiled.value);
  }

  private apply(sub: CompiledSubscription): void {
    this.generation++;
    const gen = this.generation;
    void this.replay?.cancel();
    this.replay = undefined;
    this.liveBuffer = undefined;
    this.gate?.clear();
    this.slices = sub.accountsDataSlice;
    this.slicesKey = sliceKey(sub.accountsDataSlice);
    this.gate = sub.commitment === CommitmentLevel.PROCESSED ? undefined : new CommitmentGate(sub.commitment, this.d.hub.statusOf);
    this.d.hub.register(this, sub);
    if (sub.fromSlot === undefined) return;
    // Registering and reading the live positions happen in the same synchronous step: every record at or
    // after these positions reaches onLive, every record before them is read by the replay.
    const until = this.d.tail.positions();
    this.liveBuffer = [];
    void this.startReplay(sub, sub.fromSlot, until, gen);
  }

  private async startReplay(sub: CompiledSubscription, fromSlot: bigint, until: ReturnType<LiveTail['positions']>, gen: number): Promise<void> {
    const { kafka, topics, ch, database, log } = this.d;
    try {
      const plan = await planReplay({ kafka, topics, ch, database, fromSlot });
      if (gen !== this.generation || this.closed) return;
      if (plan.scanned.length > 0) log.info({ stream: this.id, topics: plan.scanned }, 'replay: no slot_offsets for topic, scanning from the log start');
      const run = await ReplayRun.start({
        kafka,
        topics,
        fromSlot,
        plan,
        until,
        log,
        onEvent: (e) => {
          if (gen === this.generation && !this.closed) this.onReplayEvent(sub, e);
        },
      });
      if (gen !== this.generation || this.closed) {
        await run.cancel();
        return;
      }
      this.replay = run;
      await run.done;
      if (gen !== this.generation || this.closed) return;
      this.handOver(fromSlot);
    } catch (err) {
      if (gen !== this.generation || this.closed) return;
      if (err instanceof ReplayOutOfRange) {
        this.out.fail(status.OUT_OF_RANGE, err.message);
      } else {
        log.error({ err, stream: this.id }, 'replay failed');
        this.out.fail(status.UNAVAILABLE, `replay failed: ${(err as Error).message}`);
      }
      this.close();
    }
  }

  private onReplayEvent(sub: CompiledSubscription, e: ChainEvent): void {
    switch (e.kind) {
      case 'transactions': {
        const names = matchTransaction(sub, e.event);
        if (names.length > 0) this.admit(this.outgoing(new SharedUpdate({ kind: 'transaction', event: e.event }), names));
        return;
      }
      case 'accounts': {
        const names = matchAccount(sub, e.event);
        if (names.length > 0) this.admit(this.outgoing(new SharedUpdate({ kind: 'account', event: e.event }), names));
        return;
      }
      case 'slots':
        this.slotStatus(e.event.slot, e.event.status, true);
        return;
    }
  }

  private handOver(fromSlot: bigint): void {
    const buffered = this.liveBuffer ?? [];
    this.liveBuffer = undefined;
    this.replay = undefined;
    for (const item of buffered) if (item.slot === undefined || item.slot >= fromSlot) this.admit(item);
  }

  private outgoing(u: SharedUpdate, names: string[]): Outgoing {
    return outgoingOf(u, this.prefixes.get(names), this.slices, this.slicesKey);
  }

  private admit(item: Outgoing): void {
    if (!this.gate) {
      this.out.send(item);
      return;
    }
    if (this.gate.admit(item.slot!, item) === 'send') this.out.send(item);
  }

  private slotStatus(slot: bigint, st: number, remember: boolean): void {
    if (!this.gate) return;
    for (const item of this.gate.onStatus(slot, st, remember)) this.out.send(item);
  }

  onLive(u: SharedUpdate, names: string[]): void {
    if (this.closed) return;
    const item = this.outgoing(u, names);
    if (this.liveBuffer) {
      this.liveBuffer.push(item);
      if (this.liveBuffer.length > this.d.queueSize) {
        slowClientCutoffs.inc();
        this.out.fail(
          status.RESOURCE_EXHAUSTED,
          `replay could not catch up: ${this.d.queueSize} live updates waiting for the hand-over; last delivered slot ${this.out.lastSlot ?? 'none'}`,
        );
        this.close();
      }
      return;
    }
    this.admit(item);
  }

  onSlotStatus(slot: bigint, st: number): void {
    if (!this.closed) this.slotStatus(slot, st, false);
  }

  onPing(bytes: Buffer): void {
    if (!this.closed) this.out.send({ slot: undefined, bytes });
  }

  private close(abandoned = false): void {
    if (this.closed) return;
    this.closed = true;
    this.generation++;
    if (abandoned) this.out.abandon();
    openStreams.dec({ method: 'Subscribe' });
    this.d.hub.unregister(this);
    void this.replay?.cancel();
    this.replay = undefined;
    this.liveBuffer = undefined;
    this.gate?.clear();
  }
}

export function handleSubscribe(d: SubscribeDeps) {
  return (call: ServerDuplexStream<SubscribeRequest, Buffer>): void => {
    new SubscribeSession(call, d);
  };
}
