// A durable cursor's stored position is the last slot whose updates were all written to the stream (issue 32 item 8;
// docs/decisions.md "Durable cursors"), whenever the client stops: on both services (stream.Stream through grpc-js on
// stream.proto, geyser.Geyser through the real @triton-one/yellowstone-grpc client), at PROCESSED and CONFIRMED.
// The chain is stopped at moments where the cursor used to stay behind: right after the replay → live hand-over
// (statuses that came live while a paced replay ran), a slot confirmed while an earlier one is still held, and a
// slot cut in the middle. At each, once the client holds everything the server can send, the stored cursor must
// reach exactly the last slot that is whole at the stream's level; then the client is cancelled mid-slot and a new
// stream on the cursor gets the rest: nothing lost, and repeated only the cut slot's updates the first one had.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlotFramer } from '../../ingest/publish/framer.js';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { SlotEvent, SlotStatus, type ChainEvent } from '../../schemas/codec.js';
import { cursorsTopic, RECORD_KINDS, topicNames, type RecordKind } from '../../schemas/topics.js';
import { openStreams } from './metrics.js';
import { GeyserIdsProcess } from '../../test/support/geyser/ids-process.js';
import { accountEvent, b58, key, newClient, subscribe, TestPublisher, txEvent, type Msg } from '../../test/support/grpc/clients.js';
import { startTestGrpc, type TestGrpc } from '../../test/support/grpc/server.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';

const A = key();
const OWNER = key();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

interface Slot {
  events: ChainEvent[];
  /** What the test's filters match, as `slot:identity`. */
  ids: string[];
}

/** One slot's run as a source hands it: 3 transactions (2 name A), 4 account writes (2 owned by OWNER), the processed
 * record with its block meta last (the framer makes it the end marker). */
function slotRun(slot: bigint): Slot {
  const events: ChainEvent[] = [];
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const tx = txEvent(slot, i === 1 ? [key()] : [A, key()], { index: i });
    events.push({ kind: 'transactions', event: tx });
    if (i !== 1) ids.push(`${slot}:tx:${hex(tx.signatures[0]!)}`);
  }
  for (let i = 0; i < 4; i++) {
    const acc = accountEvent(slot, key(), i % 2 === 0 ? OWNER : key(), randomBytes(16), { writeVersion: slot * 1000n + BigInt(i) });
    events.push({ kind: 'accounts', event: acc });
    if (i % 2 === 0) ids.push(`${slot}:acc:${hex(acc.pubkey)}`);
  }
  events.push({
    kind: 'slots',
    event: SlotEvent.fromPartial({
      slot,
      parent: slot - 1n,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: { parentSlot: slot - 1n, blockhash: randomBytes(32), blockHeight: slot, leader: randomBytes(32), transactionCount: 3 },
    }),
  });
  return { events, ids };
}

const confirmed = (slot: bigint): ChainEvent => ({
  kind: 'slots',
  event: SlotEvent.fromPartial({ slot, status: SlotStatus.SLOT_STATUS_CONFIRMED }),
});

/** What the test published: per slot, its matching updates, whether its end marker and its confirmation are in. */
class Chain {
  readonly slots = new Map<bigint, { ids: string[]; ended: boolean; confirmed: boolean }>();

  constructor(
    private readonly pub: TestPublisher,
    private readonly partitions: Map<RecordKind, number>,
    private readonly topics: ReturnType<typeof topicNames>,
  ) {}

  private at(slot: bigint) {
    let s = this.slots.get(slot);
    if (!s) this.slots.set(slot, (s = { ids: [], ended: false, confirmed: false }));
    return s;
  }

  /** Whole slots (each with the confirmation of the slot before it unless `confirmPrevious` is false). */
  async slotsOf(from: bigint, to: bigint, confirmPrevious = true): Promise<void> {
    const events: ChainEvent[] = [];
    for (let s = from; s <= to; s++) {
      const run = slotRun(s);
      events.push(...run.events);
      this.at(s).ids.push(...run.ids);
      this.at(s).ended = true;
      if (confirmPrevious && this.slots.has(s - 1n)) {
        events.push(confirmed(s - 1n));
        this.at(s - 1n).confirmed = true;
      }
    }
    await this.pub.publishSlots(events);
  }

  async confirm(...slots: bigint[]): Promise<void> {
    for (const s of slots) this.at(s).confirmed = true;
    await this.pub.publishSlots(slots.map(confirmed));
  }

  /** A slot in two pieces: the first now (its records, no end marker), the rest with `finish`. */
  async cut(slot: bigint): Promise<{ finish: () => Promise<void> }> {
    const run = slotRun(slot);
    const framer = new SlotFramer(this.partitions, this.topics);
    const half = 4; // two of the transactions' and the first account write (one of each matched)
    this.at(slot).ids.push(...run.ids.filter((id) => run.events.slice(0, half).some((e) => idOf(e) === id)));
    await this.pub.publishFramed(framer.frame({ slot, events: run.events.slice(0, half), partial: true }));
    return {
      finish: async () => {
        const s = this.at(slot);
        s.ids = [...run.ids];
        s.ended = true;
        await this.pub.publishFramed(framer.frame({ slot, events: run.events.slice(half), partial: false }));
      },
    };
  }

  /** What a stream at the level can have been sent so far (PROCESSED: every matching record; CONFIRMED: those of
   * confirmed slots). */
  deliverable(level: Level): string[] {
    const out: string[] = [];
    for (const s of this.slots.values()) if (level === 'PROCESSED' || s.confirmed) out.push(...s.ids);
    return out.sort();
  }

  /** The last slot whose updates were all sent, as the cursor must store it: every slot up to it ended (PROCESSED) or
   * confirmed (CONFIRMED). */
  position(level: Level, from: bigint): bigint | undefined {
    let last: bigint | undefined;
    for (let s = from; this.slots.has(s); s++) {
      const x = this.slots.get(s)!;
      if (!(level === 'PROCESSED' ? x.ended : x.confirmed)) break;
      last = s;
    }
    return last;
  }
}

function idOf(e: ChainEvent): string | undefined {
  if (e.kind === 'transactions') return `${e.event.slot}:tx:${hex(e.event.signatures[0]!)}`;
  if (e.kind === 'accounts') return `${e.event.slot}:acc:${hex(e.event.pubkey)}`;
  return undefined;
}

type Level = 'PROCESSED' | 'CONFIRMED';

/** A cursor stream on either service: the matched updates it received, as `slot:identity`. */
interface CursorStream {
  ids(): string[];
  /** Cancels the call (stream.Stream) or kills the client's process (geyser.Geyser). */
  cancel(): Promise<void>;
}

describe('a durable cursor stores the last slot whose updates were all written', () => {
  const prefix = uniquePrefix('cursor-position');
  const topics = topicNames(prefix);
  let kafka: Kafka;
  let pub: TestPublisher;
  let server: TestGrpc;
  let client: Msg;
  let partitions: Map<RecordKind, number>;
  const open: CursorStream[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'cursor-position-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    partitions = new Map(await Promise.all(RECORD_KINDS.map(async (k) => [k, await kafka.admin().partitionCount(topics[k])] as const)));
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 60_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    client = newClient(server.port);
  });

  afterAll(async () => {
    for (const s of open) await s.cancel();
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka
      ?.admin()
      .deleteTopics([...Object.values(topics), cursorsTopic(topics)])
      .catch(() => undefined);
    await kafka?.close();
  });

  async function streamOn(
    service: 'stream' | 'geyser',
    level: Level,
    cursor: string,
    fromSlot: bigint,
    pace?: number,
  ): Promise<CursorStream> {
    if (service === 'stream') {
      const r = subscribe(client);
      r.send({
        transactions: { t: { account_include: [await b58(A)] } },
        accounts: { a: { owner: [await b58(OWNER)] } },
        commitment: level,
        from_slot: fromSlot.toString(),
        cursor,
        ...(pace === undefined ? {} : { pace }),
      });
      const s: CursorStream = {
        ids: () =>
          r.updates.flatMap((u: Msg) =>
            u.update_oneof === 'transaction'
              ? [`${u.transaction.slot}:tx:${hex(u.transaction.transaction.signature)}`]
              : u.update_oneof === 'account'
                ? [`${u.account.slot}:acc:${hex(u.account.account.pubkey)}`]
                : [],
          ),
        cancel: async () => r.cancel(),
      };
      open.push(s);
      return s;
    }
    // A client process, killed with SIGKILL (the napi stream's destroy() leaves the server's stream open).
    const child = await GeyserIdsProcess.start(server.port, {
      transactions: { t: { accountInclude: [await b58(A)], accountExclude: [], accountRequired: [] } },
      accounts: { a: { account: [], owner: [await b58(OWNER)], filters: [] } },
      commitment: level === 'PROCESSED' ? 0 : 1,
      fromSlot: fromSlot.toString(),
      blocksMeta: { [`x-slotstream-cursor=${cursor}`]: {}, ...(pace === undefined ? {} : { [`x-slotstream-pace=${pace}`]: {} }) },
    });
    const s: CursorStream = { ids: () => child.ids, cancel: () => child.kill() };
    open.push(s);
    return s;
  }

  const sorted = (a: string[]) => [...a].sort();
  const stored = async (name: string) => (await server.live.cursors.get(name))?.slot;

  let base = 1000n;
  describe.each(['stream', 'geyser'] as const)('%s', (service) => {
    it.each(['PROCESSED', 'CONFIRMED'] as const)('at %s', async (level) => {
      const b = (base += 100n);
      const name = `pos-${service}-${level.toLowerCase()}`;
      const chain = new Chain(pub, partitions, topics);
      const holds = async (s: CursorStream, what: string) =>
        waitFor(() => chain.deliverable(level).every((id) => s.ids().includes(id)), { what, timeoutMs: 300_000 });
      const at = async (want: bigint | undefined, what: string) => {
        await waitFor(async () => (await stored(name)) === want, { what: `cursor ${name} at ${want} (${what})`, timeoutMs: 300_000 });
      };

      // History whose records span ~2 s of recorded time, so that a replay of it at pace 1 still runs when the
      // statuses below arrive live. (The pause shapes the records' timestamps; nothing waits on it.)
      await chain.slotsOf(b, b + 4n);
      await new Promise((r) => setTimeout(r, 2_000));
      await chain.slotsOf(b + 5n, b + 9n);
      const first = await streamOn(service, level, name, b, 1);
      await waitFor(() => first.ids().length > 0, { what: 'the replay to start', timeoutMs: 300_000 });

      // 1. Right after the hand-over: b+9's confirmation and b+10 came live while the replay ran.
      await chain.confirm(b + 9n);
      await chain.slotsOf(b + 10n, b + 10n);
      await chain.confirm(b + 10n);
      await holds(first, 'the first stream to hold the chain up to the hand-over and after');
      await at(chain.position(level, b), 'after the hand-over');
      expect(chain.position(level, b)).toBe(b + 10n);

      // 2. b+12 confirmed while b+11 is not: at CONFIRMED b+11 is held, so the position stays at b+10; then b+11
      //    is confirmed and the position moves past both.
      await chain.slotsOf(b + 11n, b + 12n, false);
      await chain.confirm(b + 12n);
      await holds(first, 'the first stream to hold b+12');
      await at(level === 'PROCESSED' ? b + 12n : b + 10n, 'an earlier slot held');
      await chain.confirm(b + 11n);
      await holds(first, 'the first stream to hold b+11');
      await at(b + 12n, 'the held slot released');

      // 3. The client is cancelled in the middle of b+13 (at PROCESSED it holds part of it).
      const cut = await chain.cut(b + 13n);
      await holds(first, 'the first stream to hold the first part of b+13');
      await first.cancel();
      // Once the server closed the stream nothing more can move the cursor: the rest of b+13 comes after that.
      await waitFor(async () => (await openStreams.get()).values.every((v) => v.value === 0), {
        what: 'the server to close the first stream',
      });
      await at(b + 12n, 'cancelled mid-slot');
      await cut.finish();
      await chain.slotsOf(b + 14n, b + 14n);
      await chain.confirm(b + 14n);

      // 4. A new stream on the cursor (its from_slot ignored) gets the rest, and repeats only the cut slot's updates
      //    the first one had.
      const second = await streamOn(service, level, name, b);
      await waitFor(() => chain.deliverable(level).every((id) => first.ids().includes(id) || second.ids().includes(id)), {
        what: `the two streams to hold the whole chain; missing ${chain
          .deliverable(level)
          .filter((id) => !first.ids().includes(id) && !second.ids().includes(id))
          .join(' ')}; cursor ${String(await stored(name))}`,
        timeoutMs: 300_000,
      });
      await at(b + 14n, 'the second stream at the end of the chain');
      const beyond = (id: string) => BigInt(id.split(':')[0]!) > b + 12n;
      expect(sorted(second.ids())).toEqual(chain.deliverable(level).filter(beyond));
      expect(sorted(first.ids().filter((id) => second.ids().includes(id)))).toEqual(sorted(first.ids().filter(beyond)));
      expect(new Set(first.ids()).size).toBe(first.ids().length);
      await second.cancel();
      await waitFor(async () => (await openStreams.get()).values.every((v) => v.value === 0), {
        what: 'the server to close the second stream',
      });
    });
  });
});
