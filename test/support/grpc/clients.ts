// Helpers for the gRPC integration tests and the benchmark: a client built at run time from
// proto/stream.proto with @grpc/proto-loader (what a third-party client does; not our generated code),
// a stream recorder, and small event factories published with the real record codec.
import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { SlotFramer, type FramedRecord } from '../../../ingest/publish/framer.js';
import { frameSlotRuns } from '../ingest/framed-slot.js';
import { OffsetMap, type Kafka, type Producer } from '../../../platform/kafka/index.js';
import {
  AccountEvent,
  SlotEvent,
  TransactionEvent,
  decodeRecord,
  encodeRecord,
  type ChainEvent,
  type RecordEvent,
} from '../../../schemas/codec.js';
import { type TopicNames, RECORD_KINDS, type RecordKind } from '../../../schemas/topics.js';
import { stableEnds } from '../kafka/read-topics.js';
import { streamTopics } from '../../../api/live/index.js';
import { PROTO_PATH } from '../../../api/grpc/stream/service.js';

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
};

// proto-loader gives untyped objects; tests read them as plain JSON-like records.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Msg = any;

export interface StreamClientCtor {
  new (address: string, creds: grpc.ChannelCredentials, options?: grpc.ClientOptions): grpc.Client & Record<string, Msg>;
}

let ctor: StreamClientCtor | undefined;

export function streamClientCtor(): StreamClientCtor {
  if (!ctor) {
    const def = protoLoader.loadSync(PROTO_PATH, LOADER_OPTIONS);
    const pkg = grpc.loadPackageDefinition(def) as Msg;
    ctor = pkg.stream.Stream as StreamClientCtor;
  }
  return ctor;
}

/** A client on its own connection (no subchannel sharing), so one slow reader cannot stall another. */
export function newClient(port: number, options: grpc.ClientOptions = {}): grpc.Client & Record<string, Msg> {
  const Ctor = streamClientCtor();
  return new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    'grpc.use_local_subchannel_pool': 1,
    'grpc.max_receive_message_length': -1,
    ...options,
  });
}

/** Records everything a bidirectional stream receives. */
export class Recorder {
  readonly updates: Msg[] = [];
  error: grpc.ServiceError | undefined;
  ended = false;
  readonly receivedAt: number[] = [];

  constructor(readonly call: grpc.ClientDuplexStream<Msg, Msg>) {
    call.on('data', (m: Msg) => {
      this.updates.push(m);
      this.receivedAt.push(performance.now());
    });
    call.on('error', (e: grpc.ServiceError) => (this.error = e));
    call.on('end', () => (this.ended = true));
  }

  send(req: Msg): void {
    this.call.write(req);
  }

  of(kind: 'transaction' | 'account' | 'ping' | 'pong'): Msg[] {
    return this.updates.filter((u) => u.update_oneof === kind);
  }

  cancel(): void {
    this.call.cancel();
  }
}

export function subscribe(client: Msg, metadata?: grpc.Metadata): Recorder {
  return new Recorder(metadata ? client.Subscribe(metadata) : client.Subscribe());
}

export const b58 = async (bytes: Uint8Array): Promise<string> => (await import('bs58')).default.encode(bytes);

export const key = (): Buffer => randomBytes(32);
export const sig = (): Buffer => randomBytes(64);

export function txEvent(slot: bigint, keys: Buffer[], extra: Partial<TransactionEvent> = {}): TransactionEvent {
  return TransactionEvent.fromPartial({
    slot,
    index: 0,
    signatures: [sig()],
    numRequiredSignatures: 1,
    numReadonlySignedAccounts: 0,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: keys,
    recentBlockhash: randomBytes(32),
    instructions: [{ programIdIndex: keys.length - 1, accounts: Buffer.from([0]), data: Buffer.from([1, 2, 3]) }],
    fee: 5000n,
    ...extra,
  });
}

export function accountEvent(slot: bigint, pubkey: Buffer, owner: Buffer, data: Buffer, extra: Partial<AccountEvent> = {}): AccountEvent {
  return AccountEvent.fromPartial({
    pubkey,
    owner,
    lamports: 1_000_000n,
    executable: false,
    rentEpoch: 18446744073709551615n,
    data,
    writeVersion: slot * 1000n,
    slot,
    isStartup: false,
    ...extra,
  });
}

export function slotEvent(slot: bigint, status: number): SlotEvent {
  return SlotEvent.fromPartial({ slot, status });
}

export class TestPublisher {
  private partitions: Map<RecordKind, number> | undefined;

  private constructor(
    private readonly kafka: Kafka,
    private readonly producer: Producer,
    private readonly topics: TopicNames,
  ) {}

  static async start(kafka: Kafka, topics: TopicNames): Promise<TestPublisher> {
    return new TestPublisher(kafka, await kafka.producer(), topics);
  }

  /** Publishes events as the ingest does: each run of one slot's events framed as a whole slot (the ingest's framer
   * on the topics' partitions: the slot's parsed records, and its end marker when the run holds its PROCESSED
   * record), in order. */
  async publishSlots(events: readonly ChainEvent[]): Promise<void> {
    this.partitions ??= new Map(
      await Promise.all(RECORD_KINDS.map(async (k) => [k, await this.kafka.admin().partitionCount(this.topics[k])] as const)),
    );
    const records = frameSlotRuns(new SlotFramer(this.partitions, this.topics), events);
    await this.publishFramed(records);
  }

  /** Publishes events in order (partitioned by their keys); returns when the broker acknowledged them. */
  async publish(events: ChainEvent[]): Promise<void> {
    await this.producer.send(events.map((e) => ({ topic: this.topics[e.kind], ...encodeRecord(e) })));
  }

  /** Publishes records as the ingest's framer made them (each slot's end marker after the records it counts, on the
   * partitions it chose), in order; oversized ones (dead letters) are left out, as the ingest leaves them. */
  async publishFramed(records: readonly FramedRecord[]): Promise<void> {
    const live = records.filter((r) => r.dead === undefined);
    for (let i = 0; i < live.length; i += 2_000)
      await this.producer.send(
        live.slice(i, i + 2_000).map((r) => ({ topic: this.topics[r.kind], partition: r.partition, key: r.key, value: r.value })),
      );
  }

  async stop(): Promise<void> {
    await this.producer.close();
  }
}

export interface StoredRecord {
  topic: string;
  partition: number;
  offset: bigint;
  /** The record's Kafka timestamp (ms): when it was produced. */
  timestamp: number;
  event: RecordEvent;
}

/** Everything the stream topics hold right now, read back through a real consumer (the topic's contents). */
export async function readTopics(kafka: Kafka, topics: TopicNames): Promise<StoredRecord[]> {
  const names = streamTopics(topics);
  const ends = new OffsetMap();
  const start = new OffsetMap();
  for (const [t, parts] of await stableEnds(kafka, [...names.keys()])) {
    parts.forEach((x, p) => {
      ends.set(t, p, x.high);
      start.set(t, p, x.low);
    });
  }
  const out: StoredRecord[] = [];
  const reader = await kafka.partitionReader({
    topics: [...names.keys()],
    start,
    purpose: 'test-read',
    onRecords: (records) => {
      for (const r of records) {
        if (r.offset >= ends.get(r.topic, r.partition)!) continue;
        const d = decodeRecord(names.get(r.topic)!, r.value);
        if (d.ok) out.push({ topic: r.topic, partition: r.partition, offset: r.offset, timestamp: r.timestamp, event: d.value });
      }
    },
  });
  const done = (): boolean => [...ends].every(([t, p, high]) => (reader.position(t, p) ?? 0n) >= high);
  try {
    const deadline = Date.now() + 60_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('readTopics: timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await reader.stop();
  }
  return out;
}

/** slot_offsets rows as the projector writes them: per topic, partition and slot, the first and last offset. */
export function slotOffsetRows(
  records: StoredRecord[],
): { topic: string; partition: number; slot: string; first_offset: string; last_offset: string }[] {
  const rows = new Map<string, { topic: string; partition: number; slot: bigint; first: bigint; last: bigint }>();
  for (const r of records) {
    if (r.event.kind === 'epochs') continue;
    const slot = r.event.event.slot;
    const k = `${r.topic}/${r.partition}/${slot}`;
    const row = rows.get(k);
    if (!row) rows.set(k, { topic: r.topic, partition: r.partition, slot, first: r.offset, last: r.offset });
    else {
      if (r.offset < row.first) row.first = r.offset;
      if (r.offset > row.last) row.last = r.offset;
    }
  }
  return [...rows.values()].map((r) => ({
    topic: r.topic,
    partition: r.partition,
    slot: r.slot.toString(),
    first_offset: r.first.toString(),
    last_offset: r.last.toString(),
  }));
}
