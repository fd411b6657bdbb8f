// The yellowstone source's stream over several upstreams at once: one subscription per upstream, each with its
// own reconnects, all feeding one bounded queue; their updates are merged by identity (merge.ts: each goes
// on once, from whichever upstream delivers it first) into one assembler, which frames slots in slot order as
// it does for one upstream. An upstream that fails, ends, goes silent (`idleMs`) or trails the fastest by more
// than `maxLagSlots` is dropped and resubscribed after a growing wait, replaying from where the merged history
// stands (the first slot not handed over yet, lower to collect late statuses); the others carry on meanwhile,
// so nothing is missed while one is away. The assembler's subscription (startSubscription: resume point, gap)
// is started once, by the first upstream to open; a later upstream that cannot replay back to where history
// stands joins live with a warning (the others carry what it misses).
import { IdleWatch } from './idle-watch.js';
import * as grpc from '@grpc/grpc-js';
import { retryDelay, type RetryPolicy } from '../../../platform/retry.js';
import { sleep } from '../../../platform/sleep.js';
import type { UpstreamVersion } from '../../../schemas/codec.js';
import type { SlotBatch } from '../../source.js';
import { STATUS_REPLAY_DEPTH, type SlotAssembler } from './assembler.js';
import { loopParts } from './loop-parts.js';
import { connectGeyser, firstAvailableSlot, upstreamVersion, type GeyserClient } from './channel.js';
import type { SubscribeRequest, SubscribeUpdate } from './geyser-service.js';
import type { LeaderSchedules } from './leaders.js';
import { UpstreamMerge } from './merge.js';
import { yellowstoneMetrics, type YellowstoneMetrics } from './metrics.js';
import type { Upstream, YellowstoneSourceOptions } from './options.js';
import { planSubscription, subscribeRequest } from './subscription.js';
import { updateKind, withLeader } from './subscription-loop.js';
import { UpdateQueue } from './update-queue.js';

type Call = grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate>;

/** Updates queued from all upstreams before their readers wait (grpc-js then stops reading their sockets). */
const QUEUE_CAPACITY = 1024;
const MAX_DOUBLINGS = 16;

/** The metric label of an upstream: its URL without credentials or query (tokens never go into metrics). */
export function upstreamLabel(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
}

/** One upstream's connection state: its client is made once; `call` is its open subscription, if any. */
interface Connection {
  index: number;
  url: string;
  label: string;
  client: GeyserClient;
  metadata: grpc.Metadata;
  call: Call | undefined;
  idle: IdleWatch | undefined;
  pings: number;
}

export class MergedLoop {
  private readonly asm: SlotAssembler;
  private readonly merge: UpstreamMerge;
  private readonly leaders: LeaderSchedules;
  private readonly m: YellowstoneMetrics = yellowstoneMetrics();
  private readonly conns: Connection[];
  private readonly queue = new UpdateQueue<{ from: number; update: SubscribeUpdate }>(QUEUE_CAPACITY);
  /** Ends every upstream's loop: the caller's signal, or the consumer leaving. */
  private readonly stop = new AbortController();
  private readonly idleMs: number;
  private readonly policy: RetryPolicy;
  /** Where history continues (undefined: a fresh start), until the assembler hands over its first slot. */
  private readonly initialResume: bigint | undefined;
  /** The assembler's subscription was started (by the first upstream to open). */
  private started = false;
  /** Lowest slot the assembler received, for an upstream rejoining before any slot went out on a fresh start. */
  private firstSeen: bigint | undefined;
  /** Dead letters of rejected updates, awaited before the next batch goes out (as SubscriptionLoop does). */
  private dead: Promise<void>[] = [];
  private upstream: UpstreamVersion | undefined;
  private tip = 0;

  constructor(
    private readonly o: YellowstoneSourceOptions,
    afterSlot: bigint | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    ({ asm: this.asm, leaders: this.leaders, idleMs: this.idleMs, policy: this.policy } = loopParts(o, afterSlot, signal, () => this.dead));
    this.merge = new UpstreamMerge(o.upstreams.length, o.maxLagSlots ?? 64);
    this.initialResume = afterSlot === undefined ? undefined : afterSlot + 1n;
    this.conns = o.upstreams.map((u: Upstream, index) => {
      const metadata = new grpc.Metadata();
      if (u.xToken) metadata.set('x-token', u.xToken);
      return {
        index,
        url: u.url,
        label: upstreamLabel(u.url),
        client: connectGeyser(u.url),
        metadata,
        call: undefined,
        idle: undefined,
        pings: 0,
      };
    });
  }

  /** Batches in slot order until stopped, from whichever upstreams are connected. */
  async *batches(): AsyncGenerator<SlotBatch> {
    const onAbort = () => this.stop.abort();
    this.signal?.addEventListener('abort', onAbort, { once: true });
    if (this.signal?.aborted) this.stop.abort();
    const halt = () => {
      for (const c of this.conns) c.call?.cancel();
      this.queue.close();
    };
    this.stop.signal.addEventListener('abort', halt, { once: true });
    let runners: Promise<void>[] = [];
    try {
      await this.seedPublished();
      runners = this.conns.map((c) => this.run(c));
      for (;;) {
        const item = await this.queue.take();
        if (item === undefined || this.stop.signal.aborted) return;
        // Updates already queued let a slot's pieces go out together.
        for (const b of await this.onUpdate(item.from, item.update, this.queue.size > 0)) {
          yield b;
          if (this.stop.signal.aborted) return;
        }
      }
    } finally {
      this.stop.abort();
      this.signal?.removeEventListener('abort', onAbort);
      await Promise.all(runners);
      for (const c of this.conns) c.client.close();
      await Promise.all(this.dead);
      await this.o.deadLetters?.close();
    }
  }

  private async seedPublished(): Promise<void> {
    const resumeFrom = this.initialResume;
    if (resumeFrom === undefined || !this.o.publishedStatuses) return;
    const known = await this.o.publishedStatuses(resumeFrom > STATUS_REPLAY_DEPTH ? resumeFrom - STATUS_REPLAY_DEPTH : 0n);
    this.asm.seedPublished(known);
    this.o.log.info(
      { slots: known.size, resumeFrom: resumeFrom.toString() },
      `yellowstone source: ${known.size} recent slots' statuses read back from Kafka; the replay adds the ones that changed while the ingest was down`,
    );
  }

  /** One upstream's subscriptions, one after another, until stopped; failures are logged and retried. */
  private async run(c: Connection): Promise<void> {
    let failures = 0;
    while (!this.stop.signal.aborted) {
      let delivered = false;
      try {
        const call = await this.open(c);
        for await (const u of call as AsyncIterable<SubscribeUpdate>) {
          delivered = true;
          c.idle?.touch();
          if (u.ping) {
            // Some load balancers close streams that only the server writes to: answer every ping.
            call.write({ ...subscribeRequest(this.o.filters, undefined), ping: { id: ++c.pings } });
            continue;
          }
          await this.queue.push({ from: c.index, update: u });
          if (this.stop.signal.aborted) return;
        }
        if (this.stop.signal.aborted) return;
        this.o.log.warn({ upstream: c.label }, `yellowstone source: ${c.label} ended the stream; reconnecting while the others carry on`);
      } catch (err) {
        if (this.stop.signal.aborted) return;
        const e = err as grpc.ServiceError;
        this.o.log.warn(
          { upstream: c.label, err: e.message, code: e.code },
          `yellowstone source: ${c.label} failed (${e.message}); reconnecting while the others carry on`,
        );
      } finally {
        c.idle?.disarm();
        c.call?.cancel();
        c.call = undefined;
        this.m.upstreamConnected.set({ upstream: c.label }, 0);
        // No lag while away: the series comes back with the upstream's first announced slot.
        this.m.upstreamLag.remove({ upstream: c.label });
      }
      if (delivered) failures = 0;
      this.m.upstreamReconnects.inc({ upstream: c.label });
      this.m.reconnects.inc();
      await sleep(retryDelay(this.policy, Math.min(failures++, MAX_DOUBLINGS)), this.stop.signal).catch(() => {});
    }
  }

  /** Opens a subscription to `c`: the first to open starts the assembler's subscription (resume point, gap);
   * a later one replays from where the merged history stands. */
  private async open(c: Connection): Promise<Call> {
    const firstAvailable = await firstAvailableSlot(c.client, c.metadata, this.o.log);
    const version = await upstreamVersion(c.client, c.metadata, this.o.log);
    if (version !== undefined) this.upstream = version;
    if (this.stop.signal.aborted) throw new Error('stopped');
    let replayFrom: bigint | undefined;
    if (!this.started) {
      const resume = this.initialResume;
      const plan = planSubscription(resume, resume === undefined ? undefined : this.asm.replayStartFor(resume), firstAvailable);
      this.asm.startSubscription(plan);
      this.started = true;
      replayFrom = plan.replayFrom;
    } else {
      const last = this.asm.lastSlot;
      const resume = last !== undefined ? last + 1n : (this.initialResume ?? this.firstSeen);
      if (resume !== undefined) {
        const plan = planSubscription(resume, this.asm.replayStartFor(resume), firstAvailable);
        replayFrom = plan.replayFrom;
        if (plan.gapReason !== undefined) {
          this.o.log.warn(
            { upstream: c.label, reason: plan.gapReason },
            `yellowstone source: ${c.label} cannot replay back to slot ${resume}; it joins ${replayFrom === undefined ? 'live' : `from slot ${replayFrom}`} and the other upstreams carry what it misses`,
          );
        }
      }
    }
    this.merge.restarted(c.index);
    this.o.log.info(
      { upstream: c.label, fromSlot: replayFrom?.toString() ?? null, firstAvailable: firstAvailable?.toString() ?? null },
      replayFrom === undefined
        ? `yellowstone source: ${c.label} subscribing live`
        : `yellowstone source: ${c.label} subscribing from slot ${replayFrom}`,
    );
    const call = c.client.subscribe(c.metadata);
    c.call = call;
    c.pings = 0;
    call.write(subscribeRequest(this.o.filters, replayFrom));
    this.armIdle(c);
    this.m.upstreamConnected.set({ upstream: c.label }, 1);
    return call;
  }

  private armIdle(c: Connection): void {
    c.idle?.disarm();
    c.idle = new IdleWatch(this.idleMs, () => {
      this.o.log.warn(
        { upstream: c.label, idleMs: this.idleMs },
        `yellowstone source: no update from ${c.label} for ${this.idleMs} ms; reopening it`,
      );
      c.call?.cancel();
    });
    c.idle.arm();
  }

  /** One update from upstream `from`: the first of its identity is counted and assembled; the batches it completed. */
  private async onUpdate(from: number, u: SubscribeUpdate, more: boolean): Promise<SlotBatch[]> {
    const label = this.conns[from]!.label;
    const verdict = this.merge.offer(from, u);
    this.checkLag();
    if (verdict === 'duplicate' || verdict === 'closed') this.m.upstreamDuplicates.inc({ upstream: label });
    if (verdict !== 'won') return this.handOver(more ? [] : this.asm.flush());
    this.m.upstreamWon.inc({ upstream: label });
    this.m.updates.inc({ kind: updateKind(u) });
    if (u.slot && Number(u.slot.slot) > this.tip) {
      this.tip = Number(u.slot.slot);
      this.m.upstreamSlot.set(this.tip);
    }
    const announced = u.slot?.slot ?? u.blockMeta?.slot;
    if (announced !== undefined) this.o.onUpstreamSlot?.(BigInt(announced));
    const slot = u.slot?.slot ?? u.blockMeta?.slot ?? u.entry?.slot ?? u.transaction?.slot ?? u.account?.slot;
    if (slot !== undefined && (this.firstSeen === undefined || BigInt(slot) < this.firstSeen)) this.firstSeen = BigInt(slot);
    const batches = this.asm.push(u, more);
    this.merge.closedThrough(this.asm.lastSlot);
    if (this.dead.length > 0) {
      await Promise.all(this.dead);
      this.dead = [];
    }
    return this.handOver(batches);
  }

  /** Batches the assembler completed, with their leaders and the upstream's version. */
  private async handOver(batches: SlotBatch[]): Promise<SlotBatch[]> {
    const out: SlotBatch[] = [];
    for (const b of batches) {
      const withL = await withLeader(b, this.leaders);
      if (this.upstream !== undefined) withL.upstream = this.upstream;
      out.push(withL);
    }
    return out;
  }

  /** Lag gauges; an upstream trailing the fastest by more than the limit is dropped (its loop resubscribes). */
  private checkLag(): void {
    for (const c of this.conns) {
      const lag = this.merge.lag(c.index);
      if (lag !== undefined) this.m.upstreamLag.set({ upstream: c.label }, lag);
    }
    for (const i of this.merge.laggards()) {
      const c = this.conns[i]!;
      this.o.log.warn(
        { upstream: c.label, lagSlots: this.merge.lag(i) },
        `yellowstone source: ${c.label} is ${this.merge.lag(i)} slots behind the fastest upstream; dropping and resubscribing it`,
      );
      this.merge.restarted(i);
      c.call?.cancel();
    }
  }
}
