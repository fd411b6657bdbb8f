// The yellowstone source's stream: one subscription at a time, its updates assembled per slot into batches
// handed over in slot order; on an error, a silent stream or the end of the stream it reconnects after a
// growing wait (reconnects.ts) and resumes where history stops, asking SubscribeReplayInfo how far back the
// upstream can go (subscription.ts plans it). Each step is a method: `batches` (the reconnect loop),
// `subscribeOnce` (one subscription), `open`, `onUpdate`, `armIdle`, `close`.
import { IdleWatch } from './idle-watch.js';
import * as grpc from '@grpc/grpc-js';
import { sleep } from '../../../platform/sleep.js';
import { SlotStatus, type UpstreamVersion } from '../../../schemas/codec.js';
import type { SlotBatch } from '../../source.js';
import { STATUS_REPLAY_DEPTH, type SlotAssembler } from './assembler.js';
import { loopParts } from './loop-parts.js';
import { connectGeyser, firstAvailableSlot, upstreamVersion, type GeyserClient } from './channel.js';
import type { SubscribeRequest, SubscribeUpdate } from './geyser-service.js';
import type { LeaderSchedules } from './leaders.js';
import { yellowstoneMetrics, type YellowstoneMetrics } from './metrics.js';
import type { YellowstoneSourceOptions } from './options.js';
import { Reconnects } from './reconnects.js';
import { planSubscription, subscribeRequest } from './subscription.js';

type Call = grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate>;

/** What one subscription ended with: `stopped` ends the whole stream (the signal, or the consumer left). */
type Ended = 'stopped' | 'reconnect';

export class SubscriptionLoop {
  // Made once at construction and never replaced: the upstream client and its metadata, the assembler
  // (which carries slot state across subscriptions), leaders, metrics. Only this class's steps use them.
  private readonly client: GeyserClient;
  private readonly metadata = new grpc.Metadata();
  private readonly asm: SlotAssembler;
  private readonly leaders: LeaderSchedules;
  private readonly m: YellowstoneMetrics = yellowstoneMetrics();
  private readonly idleMs: number;

  // Where the next subscription resumes and how long to wait before it: moved by `batches` after each
  // subscription ends, reset by `onUpdate` when an update arrives.
  private readonly reconnects: Reconnects;

  // Dead letters of updates the assembler rejected since the last batch went out: the assembler's notice
  // callback adds, `onUpdate` awaits and clears them before the next batch is handed over (a batch goes out
  // only after the dead letters of the updates before it were acknowledged); `close` awaits the rest.
  private dead: Promise<void>[] = [];

  // The open subscription: set by `open`, cancelled and cleared by `subscribeOnce`'s end; the idle timer
  // and an abort cancel it from outside (the `for await` then ends). `pings` counts our answers to its pings.
  private call: Call | undefined;
  private idle: IdleWatch | undefined;
  private pings = 0;

  // The upstream's version (GetVersion at each connect), put on every batch.
  private upstream: UpstreamVersion | undefined;

  // Highest slot the upstream announced, for the gauge; only `count` moves it.
  private tip = 0;

  constructor(
    private readonly o: YellowstoneSourceOptions,
    afterSlot: bigint | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    const parts = loopParts(o, afterSlot, signal, () => this.dead);
    ({ asm: this.asm, leaders: this.leaders, idleMs: this.idleMs } = parts);
    this.reconnects = new Reconnects(afterSlot, parts.policy);
    this.client = connectGeyser(o.upstreams[0]!.url);
    const token = o.upstreams[0]!.xToken;
    if (token) this.metadata.set('x-token', token);
  }

  /** Batches in slot order until stopped, reconnecting after every end or failure. */
  async *batches(): AsyncGenerator<SlotBatch> {
    try {
      await this.seedPublished();
      while (!this.signal?.aborted) {
        if ((yield* this.subscribeOnce()) === 'stopped') return;
        const wait = this.reconnects.ended(this.asm.lastSlot);
        this.m.reconnects.inc();
        // Stopping ends the wait; the loop's condition then ends the run.
        await sleep(wait, this.signal).catch(() => {});
      }
    } finally {
      await this.close();
    }
  }

  /** On a restart, the statuses Kafka already holds for recent slots, so the replay adds only the changed ones. */
  private async seedPublished(): Promise<void> {
    const resumeFrom = this.reconnects.resumeFrom;
    if (resumeFrom === undefined || !this.o.publishedStatuses) return;
    const known = await this.o.publishedStatuses(resumeFrom > STATUS_REPLAY_DEPTH ? resumeFrom - STATUS_REPLAY_DEPTH : 0n);
    this.asm.seedPublished(known);
    this.o.log.info(
      { slots: known.size, resumeFrom: resumeFrom.toString() },
      `yellowstone source: ${known.size} recent slots' statuses read back from Kafka; the replay adds the ones that changed while the ingest was down`,
    );
  }

  /** One subscription, from opening to its end; a failure is logged, not thrown. */
  private async *subscribeOnce(): AsyncGenerator<SlotBatch, Ended> {
    const onAbort = () => this.call?.cancel();
    this.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const call = await this.open();
      for await (const u of call as AsyncIterable<SubscribeUpdate>) {
        // Updates grpc-js has already read (readableLength) let a slot's pieces go out together.
        for (const b of await this.onUpdate(u, call.readableLength > 0)) {
          const out = await withLeader(b, this.leaders);
          if (this.upstream !== undefined) out.upstream = this.upstream;
          yield out;
          if (this.signal?.aborted) return 'stopped';
        }
      }
      if (this.signal?.aborted) return 'stopped';
      this.o.log.warn(
        { lastSlot: this.asm.lastSlot?.toString() ?? null },
        'yellowstone source: the upstream ended the stream; reconnecting',
      );
    } catch (err) {
      if (this.signal?.aborted) return 'stopped';
      const e = err as grpc.ServiceError;
      this.o.log.warn(
        { err: e.message, code: e.code, lastSlot: this.asm.lastSlot?.toString() ?? null },
        `yellowstone source: subscription failed (${e.message}); reconnecting`,
      );
    } finally {
      this.idle?.disarm();
      this.signal?.removeEventListener('abort', onAbort);
      this.call?.cancel();
      this.call = undefined;
    }
    return 'reconnect';
  }

  /** Plans where the subscription starts (what history needs, what the upstream can replay) and opens it. */
  private async open(): Promise<Call> {
    const resumeFrom = this.reconnects.resumeFrom;
    const firstAvailable = await firstAvailableSlot(this.client, this.metadata, this.o.log);
    this.upstream = await upstreamVersion(this.client, this.metadata, this.o.log);
    const plan = planSubscription(resumeFrom, resumeFrom === undefined ? undefined : this.asm.replayStartFor(resumeFrom), firstAvailable);
    this.asm.startSubscription(plan);
    this.o.log.info(
      {
        url: this.o.upstreams[0]!.url,
        resumeFrom: plan.resumeFrom?.toString() ?? null,
        fromSlot: plan.replayFrom?.toString() ?? null,
        firstAvailable: firstAvailable?.toString() ?? null,
      },
      plan.replayFrom === undefined
        ? 'yellowstone source: subscribing live'
        : `yellowstone source: subscribing from slot ${plan.replayFrom}`,
    );
    const call = this.client.subscribe(this.metadata);
    this.call = call;
    call.write(subscribeRequest(this.o.filters, plan.replayFrom));
    this.pings = 0;
    this.armIdle();
    return call;
  }

  /** A silent stream (Yellowstone pings every few seconds) is taken as dead: cancelled, which ends it. */
  private armIdle(): void {
    this.idle?.disarm();
    this.idle = new IdleWatch(this.idleMs, () => {
      this.o.log.warn({ idleMs: this.idleMs }, `yellowstone source: no update for ${this.idleMs} ms; reopening the stream`);
      this.call?.cancel();
    });
    this.idle.arm();
  }

  /** One update: answers pings, counts, assembles; the batches it completed, after their dead letters. */
  private async onUpdate(u: SubscribeUpdate, more: boolean): Promise<SlotBatch[]> {
    this.idle?.touch();
    this.reconnects.received();
    if (u.ping) {
      // Some load balancers close streams that only the server writes to: answer every ping.
      this.call?.write({ ...subscribeRequest(this.o.filters, undefined), ping: { id: ++this.pings } });
      return more ? [] : this.asm.flush();
    }
    this.count(u);
    const announced = u.slot?.slot ?? u.blockMeta?.slot;
    if (announced !== undefined) this.o.onUpstreamSlot?.(BigInt(announced));
    const batches = this.asm.push(u, more);
    if (this.dead.length > 0) {
      await Promise.all(this.dead);
      this.dead = [];
    }
    return batches;
  }

  private count(u: SubscribeUpdate): void {
    this.m.updates.inc({ kind: updateKind(u) });
    if (u.slot && Number(u.slot.slot) > this.tip) {
      this.tip = Number(u.slot.slot);
      this.m.upstreamSlot.set(this.tip);
    }
  }

  private async close(): Promise<void> {
    this.client.close();
    await Promise.all(this.dead);
    await this.o.deadLetters?.close();
  }
}

/** The `kind` label of slotstream_ingest_yellowstone_updates_total. */
export function updateKind(u: SubscribeUpdate): string {
  if (u.slot) return 'slot';
  if (u.blockMeta) return 'block_meta';
  if (u.transaction) return 'transaction';
  if (u.account) return 'account';
  if (u.entry) return 'entry';
  return 'other';
}

/** Fills what Yellowstone does not carry: the epoch record before an epoch's first batch, and the leader. */
export async function withLeader(b: SlotBatch, leaders: LeaderSchedules): Promise<SlotBatch> {
  const { epoch, leader } = await leaders.forSlot(b.slot);
  for (const e of b.events) {
    if (e.kind === 'slots' && e.event.slot === b.slot && e.event.status === SlotStatus.SLOT_STATUS_PROCESSED && e.event.block)
      e.event.block.leader = leader;
  }
  if (epoch) b.events.unshift({ kind: 'epochs', event: epoch });
  return b;
}
