// A small chain for the PubSub tests and benchmark, published to real topics with the record codec: a
// slot's transactions and account writes, then its processed record (block meta with the parent, the end
// marker), then confirmed / finalized / dead records when a test asks. What was published is returned, so
// tests check notifications against what the topics hold (`lastStatePerSlot` reads them back).
import { randomBytes } from 'node:crypto';
import type { Kafka } from '../../../platform/kafka/index.js';
import { AccountEvent, SlotEvent, SlotStatus, TransactionEvent, type ChainEvent } from '../../../schemas/codec.js';
import type { TopicNames } from '../../../schemas/topics.js';
import { TestPublisher } from '../grpc/clients.js';
import { readTopics } from '../kafka/read-topics.js';

export { accountEvent, key, sig, txEvent } from '../grpc/clients.js';

export class PubSubChain {
  private constructor(private readonly pub: TestPublisher) {}

  static async start(kafka: Kafka, topics: TopicNames): Promise<PubSubChain> {
    return new PubSubChain(await TestPublisher.start(kafka, topics));
  }

  /** A slot's records, then its processed record with block meta (parent = slot - 1). */
  async slot(slot: bigint, o: { txs?: TransactionEvent[]; accounts?: AccountEvent[] } = {}): Promise<void> {
    const events: ChainEvent[] = [
      ...(o.txs ?? []).map((event): ChainEvent => ({ kind: 'transactions', event })),
      ...(o.accounts ?? []).map((event): ChainEvent => ({ kind: 'accounts', event })),
    ];
    events.push({
      kind: 'slots',
      event: SlotEvent.fromPartial({
        slot,
        status: SlotStatus.SLOT_STATUS_PROCESSED,
        block: {
          parentSlot: slot - 1n,
          blockhash: randomBytes(32),
          blockHeight: slot,
          leader: randomBytes(32),
          transactionCount: o.txs?.length ?? 0,
          previousBlockhash: randomBytes(32),
        },
      }),
    });
    await this.pub.publish(events);
  }

  async status(slot: bigint, status: SlotStatus): Promise<void> {
    await this.pub.publish([{ kind: 'slots', event: SlotEvent.fromPartial({ slot, status }) }]);
  }

  confirm = (slot: bigint): Promise<void> => this.status(slot, SlotStatus.SLOT_STATUS_CONFIRMED);
  finalize = (slot: bigint): Promise<void> => this.status(slot, SlotStatus.SLOT_STATUS_FINALIZED);
  kill = (slot: bigint): Promise<void> => this.status(slot, SlotStatus.SLOT_STATUS_DEAD);

  async stop(): Promise<void> {
    await this.pub.stop();
  }
}

/** An account write with its lamports and a write version (later writes in a slot get higher ones). */
export function write(slot: bigint, pubkey: Buffer, owner: Buffer, lamports: bigint, data: Buffer, writeVersion: bigint): AccountEvent {
  return AccountEvent.fromPartial({
    pubkey,
    owner,
    lamports,
    data,
    slot,
    writeVersion,
    executable: false,
    rentEpoch: 18446744073709551615n,
  });
}

/** What the accounts topic holds for `pubkey`: per slot, the write with the highest write version. */
export async function lastStatePerSlot(kafka: Kafka, topics: TopicNames, pubkey: Buffer): Promise<Map<bigint, AccountEvent>> {
  const contents = await readTopics(kafka, [topics.accounts]);
  const out = new Map<bigint, AccountEvent>();
  for (const partition of contents.get(topics.accounts) ?? []) {
    for (const r of partition ?? []) {
      const e = AccountEvent.decode(r.value);
      if (!e.pubkey.equals(pubkey)) continue;
      const prev = out.get(e.slot);
      if (prev === undefined || prev.writeVersion < e.writeVersion) out.set(e.slot, e);
    }
  }
  return out;
}

/** First signatures of the transactions the topic holds that mention `key` (static keys or loaded addresses). */
export async function transactionsMentioning(kafka: Kafka, topics: TopicNames, key: Buffer): Promise<Buffer[]> {
  const contents = await readTopics(kafka, [topics.transactions]);
  const out: Buffer[] = [];
  for (const partition of contents.get(topics.transactions) ?? []) {
    for (const r of partition ?? []) {
      const t = TransactionEvent.decode(r.value);
      if ([...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].some((k) => k.equals(key))) out.push(t.signatures[0]!);
    }
  }
  return out;
}
