// --source yellowstone: one Yellowstone gRPC subscription at `processed` (slot statuses with interslot
// updates, block meta, and by config transactions, account writes and entries), assembled per slot
// (assembler.ts) into batches in slot order. The connection (TLS or plaintext by URL scheme, x-token,
// keepalive, gzip accepted) is grpc-js's generic client on Yellowstone's service definition; on an error or
// the end of the stream it reconnects with backoff and resumes where history stops, asking
// SubscribeReplayInfo how far back the upstream can go, and names any slots it cannot reach in a gap record.
import * as grpc from '@grpc/grpc-js';
import bs58 from 'bs58';
import type { Logger } from '../../platform/log.js';
import { SlotStatus } from '../../schemas/codec.js';
import { RpcClient } from '../rpc/client.js';
import type { DeadLetter, DeadLetterSink } from '../dead-letter-sink.js';
import { abortableSleep } from '../sleep.js';
import type { ChainSource, SlotBatch } from '../source.js';
import { SlotAssembler, STATUS_REPLAY_DEPTH, type Notice } from './assembler.js';
import { GEYSER_SERVICE, SubscribeUpdateCodec, type SubscribeRequest, type SubscribeReplayInfoResponse, type SubscribeUpdate } from './geyser-service.js';
import { LeaderSchedules } from './leaders.js';
import { yellowstoneMetrics } from './metrics.js';
import { planSubscription, receivesEveryTransaction, subscribeRequest, type Filters } from './subscription.js';

export interface YellowstoneSourceOptions {
  /** http://host:port (plaintext) or https://host[:port] (TLS). */
  url: string;
  xToken?: string;
  filters: Filters;
  /** The upstream's JSON-RPC, for epochs and leaders; undefined: blocks without leader, no epoch records. */
  rpc?: { url: string; timeoutMs: number };
  log: Logger;
  /** First reconnect delay; doubles up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A stream silent this long (Yellowstone pings every few seconds) is taken as dead and reopened. */
  idleMs?: number;
  /** Every slot the upstream announces (statuses, block meta), for the lag (ingest/lag.ts). */
  onUpstreamSlot?: (slot: bigint) => void;
  /** Where updates the conversion rejects go (the dead-letter topic); without, they are logged only. */
  deadLetters?: DeadLetterSink;
  /** The statuses Kafka holds for slots from `fromSlot` on (published-statuses.ts): on a restart the source
   * replays recent slots and publishes the confirmed/finalized statuses that arrived while it was down. */
  publishedStatuses?: (fromSlot: bigint) => Promise<ReadonlyMap<bigint, ReadonlySet<SlotStatus>>>;
}

const GiB = 1024 * 1024 * 1024;

/** The grpc-js target and credentials of a Yellowstone URL. */
export function channelOf(url: string): { target: string; credentials: grpc.ChannelCredentials } {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`yellowstone URL must be http:// or https:// (got ${url})`);
  const tls = u.protocol === 'https:';
  const port = u.port !== '' ? u.port : tls ? '443' : '80';
  return { target: `${u.hostname}:${port}`, credentials: tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure() };
}

const GeyserClient = grpc.makeGenericClientConstructor(GEYSER_SERVICE, 'Geyser');
type Client = InstanceType<typeof GeyserClient> & {
  subscribe(metadata: grpc.Metadata): grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate>;
  subscribeReplayInfo(
    request: object,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: (err: grpc.ServiceError | null, res?: SubscribeReplayInfoResponse) => void,
  ): grpc.ClientUnaryCall;
};

export function createYellowstoneSource(o: YellowstoneSourceOptions): ChainSource {
  const notes = [`yellowstone source: ${o.url}, subscribing to slots, block meta${o.filters.streams.map((s) => `, ${s}`).join('')} at processed`];
  if (!o.rpc) notes.push('yellowstone source: no --rpc-url: blocks go out without leader and no epoch records are published');
  if (!receivesEveryTransaction(o.filters)) {
    notes.push('yellowstone source: transactions are filtered or not subscribed, so slots do not wait for every transaction and block vote counts are 0');
  }
  return {
    notes,
    batches: (opts) => run(o, opts),
  };
}

async function* run(o: YellowstoneSourceOptions, opts: { afterSlot?: bigint; signal?: AbortSignal }): AsyncGenerator<SlotBatch> {
  const { log } = o;
  const signal = opts.signal;
  const m = yellowstoneMetrics();
  // Dead letters of the updates before a batch are acknowledged before the batch is handed over.
  let dead: Promise<void>[] = [];
  const asm = new SlotAssembler({
    countTransactions: receivesEveryTransaction(o.filters),
    countEntries: o.filters.streams.includes('entries'),
    onNotice: (n) => {
      if (n.kind === 'unconvertible' && o.deadLetters) dead.push(o.deadLetters.send(deadLetterOf(n)));
      else notice(n, log);
    },
  });
  const leaders = new LeaderSchedules(o.rpc ? new RpcClient({ ...o.rpc, log, signal }) : undefined, log);
  if (opts.afterSlot !== undefined) leaders.resumeAfter(opts.afterSlot);
  const { target, credentials } = channelOf(o.url);
  const client = new GeyserClient(target, credentials, {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.max_receive_message_length': GiB,
    'grpc.primary_user_agent': 'slotstream',
  }) as Client;
  const metadata = new grpc.Metadata();
  if (o.xToken) metadata.set('x-token', o.xToken);
  const initialBackoff = o.backoffMs ?? 500;
  const maxBackoff = o.maxBackoffMs ?? 30_000;
  let resumeFrom = opts.afterSlot === undefined ? undefined : opts.afterSlot + 1n;
  if (resumeFrom !== undefined && o.publishedStatuses) {
    const known = await o.publishedStatuses(resumeFrom > STATUS_REPLAY_DEPTH ? resumeFrom - STATUS_REPLAY_DEPTH : 0n);
    asm.seedPublished(known);
    log.info({ slots: known.size, resumeFrom: resumeFrom.toString() }, `yellowstone source: ${known.size} recent slots' statuses read back from Kafka; the replay adds the ones that changed while the ingest was down`);
  }
  const tip = { slot: 0 };
  let failures = 0;
  try {
    while (!signal?.aborted) {
      let call: grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate> | undefined;
      let idle: NodeJS.Timeout | undefined;
      const onAbort = () => call?.cancel();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const firstAvailable = await replayInfo(client, metadata, log);
        const plan = planSubscription(resumeFrom, resumeFrom === undefined ? undefined : asm.replayStartFor(resumeFrom), firstAvailable);
        asm.startSubscription(plan);
        log.info(
          { url: o.url, resumeFrom: plan.resumeFrom?.toString() ?? null, fromSlot: plan.replayFrom?.toString() ?? null, firstAvailable: firstAvailable?.toString() ?? null },
          plan.replayFrom === undefined ? 'yellowstone source: subscribing live' : `yellowstone source: subscribing from slot ${plan.replayFrom}`,
        );
        call = client.subscribe(metadata);
        call.write(subscribeRequest(o.filters, plan.replayFrom));
        let pings = 0;
        const idleMs = o.idleMs ?? 60_000;
        const arm = () => {
          clearTimeout(idle);
          idle = setTimeout(() => {
            log.warn({ idleMs }, `yellowstone source: no update for ${idleMs} ms; reopening the stream`);
            call?.cancel();
          }, idleMs);
        };
        arm();
        for await (const u of call as AsyncIterable<SubscribeUpdate>) {
          arm();
          failures = 0;
          if (u.ping) {
            // Some load balancers close streams that only the server writes to: answer every ping.
            call.write({ ...subscribeRequest(o.filters, undefined), ping: { id: ++pings } });
            continue;
          }
          count(u, m, tip);
          const announced = u.slot?.slot ?? u.blockMeta?.slot;
          if (announced !== undefined) o.onUpstreamSlot?.(BigInt(announced));
          const batches = asm.push(u);
          if (dead.length > 0) {
            await Promise.all(dead);
            dead = [];
          }
          for (const b of batches) {
            yield await withLeader(b, leaders);
            if (signal?.aborted) return;
          }
        }
        if (signal?.aborted) return;
        log.warn({ lastSlot: asm.lastSlot?.toString() ?? null }, 'yellowstone source: the upstream ended the stream; reconnecting');
      } catch (err) {
        if (signal?.aborted) return;
        const e = err as grpc.ServiceError;
        log.warn({ err: e.message, code: e.code, lastSlot: asm.lastSlot?.toString() ?? null }, `yellowstone source: subscription failed (${e.message}); reconnecting`);
      } finally {
        clearTimeout(idle);
        signal?.removeEventListener('abort', onAbort);
        call?.cancel();
      }
      if (asm.lastSlot !== undefined) resumeFrom = asm.lastSlot + 1n;
      m.reconnects.inc();
      const delay = Math.min(maxBackoff, initialBackoff * 2 ** Math.min(failures++, 16));
      // Stopping ends the wait; the loop's condition then ends the run.
      await abortableSleep(delay, signal, () => new Error('stopped')).catch(() => {});
    }
  } finally {
    client.close();
    await Promise.all(dead);
    await o.deadLetters?.close();
  }
}

const TOPIC_OF: Record<string, DeadLetter['kind']> = { slot: 'slots', 'block meta': 'slots', transaction: 'transactions', account: 'accounts', entry: 'entries' };

/** The update as it came on the wire (re-encoded with Yellowstone's codec), named by slot and signature. */
function deadLetterOf(n: Extract<Notice, { kind: 'unconvertible' }>): DeadLetter {
  let value: Buffer;
  let format = 'geyser.SubscribeUpdate';
  try {
    value = Buffer.from(SubscribeUpdateCodec.encode(n.update).finish());
  } catch {
    // Too broken to re-encode: its fields as JSON, bytes as base64 and u64 as text.
    value = Buffer.from(JSON.stringify(n.update, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : typeof v === 'bigint' ? v.toString() : v)));
    format = 'geyser.SubscribeUpdate as JSON';
  }
  const sig = n.signature !== undefined && n.signature.length > 0 ? bs58.encode(n.signature) : undefined;
  return { kind: TOPIC_OF[n.what] ?? 'slots', what: n.what, slot: n.slot, reason: n.reason, signature: sig, value, format };
}

async function replayInfo(client: Client, metadata: grpc.Metadata, log: Logger): Promise<bigint | undefined> {
  try {
    const res = await new Promise<SubscribeReplayInfoResponse>((resolve, reject) => {
      client.subscribeReplayInfo({}, metadata, { deadline: Date.now() + 10_000 }, (err, r) => (err ? reject(err) : resolve(r!)));
    });
    return res.firstAvailable === undefined ? undefined : BigInt(res.firstAvailable);
  } catch (err) {
    const e = err as grpc.ServiceError;
    if (e.code === grpc.status.UNIMPLEMENTED) {
      log.warn('yellowstone source: the upstream has no SubscribeReplayInfo: it cannot replay, reconnects resume live');
      return undefined;
    }
    throw err;
  }
}

/** Fills what Yellowstone does not carry: the epoch record before an epoch's first batch, and the leader. */
async function withLeader(b: SlotBatch, leaders: LeaderSchedules): Promise<SlotBatch> {
  const { epoch, leader } = await leaders.forSlot(b.slot);
  for (const e of b.events) {
    if (e.kind === 'slots' && e.event.slot === b.slot && e.event.status === SlotStatus.SLOT_STATUS_PROCESSED && e.event.block) e.event.block.leader = leader;
  }
  if (epoch) b.events.unshift({ kind: 'epochs', event: epoch });
  return b;
}

function count(u: SubscribeUpdate, m: ReturnType<typeof yellowstoneMetrics>, tip: { slot: number }): void {
  const kind = u.slot ? 'slot' : u.blockMeta ? 'block_meta' : u.transaction ? 'transaction' : u.account ? 'account' : u.entry ? 'entry' : 'other';
  m.updates.inc({ kind });
  if (u.slot && Number(u.slot.slot) > tip.slot) {
    tip.slot = Number(u.slot.slot);
    m.upstreamSlot.set(tip.slot);
  }
}

function notice(n: Notice, log: Logger): void {
  const m = yellowstoneMetrics();
  m.notices.inc({ kind: n.kind });
  switch (n.kind) {
    case 'gap':
      m.gapSlots.inc(Number(n.last - n.first + 1n));
      log.error({ firstSlot: n.first.toString(), lastSlot: n.last.toString(), reason: n.reason }, `yellowstone source: slots ${n.first}-${n.last} are missing: ${n.reason}; a gap record names them`);
      return;
    case 'incomplete':
      log.warn(
        { slot: n.slot.toString(), transactions: n.transactions, expectedTransactions: n.expectedTransactions.toString(), entries: n.entries, expectedEntries: n.expectedEntries.toString() },
        `yellowstone source: slot ${n.slot} goes out without everything its block meta announced`,
      );
      return;
    case 'abandoned':
      log.warn({ slot: n.slot.toString(), records: n.records }, `yellowstone source: slot ${n.slot} got data but no block; its records go out with the next slot`);
      return;
    case 'partial-at-start':
      log.info({ slot: n.slot.toString() }, `yellowstone source: slot ${n.slot} was already under way when the live subscription began; not published`);
      return;
    case 'before-start':
      log.info({ slot: n.slot.toString(), records: n.records }, `yellowstone source: slot ${n.slot} precedes the first whole slot; not published`);
      return;
    case 'late-data':
      log.warn({ slot: n.slot.toString() }, `yellowstone source: data of slot ${n.slot} came after the slot went out; dropped`);
      return;
    case 'unconvertible': {
      const sig = n.signature !== undefined && n.signature.length > 0 ? bs58.encode(n.signature) : null;
      log.warn({ slot: n.slot?.toString() ?? null, signature: sig, what: n.what, reason: n.reason }, `yellowstone source: unconvertible ${n.what} update of slot ${n.slot ?? 'unknown'}${sig ? ` (signature ${sig})` : ''} not published (no dead-letter topic): ${n.reason}`);
      return;
    }
  }
}
