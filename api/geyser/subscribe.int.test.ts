// geyser.Geyser Subscribe against the real api fed by the real broker, driven by the REAL
// @triton-one/yellowstone-grpc client. Each filter kind must deliver exactly what a reference matcher
// written here (Yellowstone's rules, not api/filters) selects from the records read back from the topics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import type { TransactionEvent } from '../../schemas/codec.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { key, readTopics, TestPublisher, txEvent } from '../../test/support/grpc/clients.js';
import { connectGeyser, geyserRequest, GeyserRecorder, type GeyserClient } from '../../test/support/geyser/client.js';
import { startGrpc, type GrpcServer } from '../grpc/server.js';

const b58 = (b: Uint8Array): string => bs58.encode(b);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const sorted = <T>(xs: T[]): T[] => [...xs].sort();

// ---- Reference matcher (Yellowstone's filter.rs semantics, written independently of api/filters) ----
interface TxFilter {
  vote?: boolean;
  failed?: boolean;
  signature?: string;
  accountInclude?: string[];
  accountExclude?: string[];
  accountRequired?: string[];
}
function txKeys(t: TransactionEvent): Set<string> {
  return new Set([...t.accountKeys, ...t.loadedWritable, ...t.loadedReadonly].map(b58));
}
function txPasses(f: TxFilter, t: TransactionEvent): boolean {
  const keys = txKeys(t);
  if (f.vote !== undefined && f.vote !== t.isVote) return false;
  if (f.failed !== undefined && f.failed !== (t.err !== undefined)) return false;
  if (f.signature !== undefined && f.signature !== b58(t.signatures[0]!)) return false;
  if (f.accountInclude?.length && !f.accountInclude.some((k) => keys.has(k))) return false;
  if (f.accountExclude?.length && f.accountExclude.some((k) => keys.has(k))) return false;
  if (f.accountRequired?.length && !f.accountRequired.every((k) => keys.has(k))) return false;
  return true;
}

describe('geyser.Geyser Subscribe (real Yellowstone client)', () => {
  const topics = topicNames(uniquePrefix('geyser-sub'));
  let kafka: Kafka;
  let server: GrpcServer;
  let pub: TestPublisher;
  let client: GeyserClient;
  const open: GeyserRecorder[] = [];
  let slot = 5000n;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'geyser-sub-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startGrpc({ kafka, topics, database: 'unused', host: '127.0.0.1', port: 0, queueSize: 1000, log: silentLogger, pingIntervalMs: 300 });
    client = await connectGeyser(server.port);
  });

  afterAll(async () => {
    for (const r of open) r.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  async function stream(c: GeyserClient = client): Promise<GeyserRecorder> {
    const r = await GeyserRecorder.open(c);
    open.push(r);
    return r;
  }

  async function transactionsInTopics(): Promise<TransactionEvent[]> {
    return (await readTopics(kafka, topics)).flatMap((r) => (r.event.kind === 'transactions' ? [r.event.event] : []));
  }

  it('transactions and transactions_status: exactly what the reference matcher selects, with the names of every matching filter', async () => {
    const [a, b, c, d] = [key(), key(), key(), key()];
    const s = ++slot;
    const txs = [
      txEvent(s, [a, b]),
      txEvent(s, [a, d], { isVote: true }),
      txEvent(s, [b, c], { err: '{"InstructionError":[0,{"Custom":41}]}' }),
      txEvent(s, [c, d], { loadedWritable: [a] }),
      txEvent(s, [b, d]),
      txEvent(s, [d]),
    ];
    const filters: Record<string, TxFilter> = {
      inc_a: { accountInclude: [b58(a)] },
      req_bc: { accountRequired: [b58(b), b58(c)] },
      novote_not_c: { vote: false, accountExclude: [b58(c)], accountInclude: [b58(a), b58(b)] },
      failed: { failed: true, accountInclude: [b58(a), b58(b), b58(c)] },
      by_sig: { signature: b58(txs[4]!.signatures[0]!) },
    };
    const statusFilters: Record<string, TxFilter> = { st_d: { accountInclude: [b58(d)], failed: false } };
    const wire = (f: TxFilter) => ({ accountInclude: [], accountExclude: [], accountRequired: [], ...f });
    const r = await stream();
    await r.request(
      geyserRequest({
        transactions: Object.fromEntries(Object.entries(filters).map(([n, f]) => [n, wire(f)])),
        transactionsStatus: Object.fromEntries(Object.entries(statusFilters).map(([n, f]) => [n, wire(f)])),
      }),
    );
    await pub.publish(txs.map((event) => ({ kind: 'transactions' as const, event })));

    const inTopics = (await transactionsInTopics()).filter((t) => txKeys(t).has(b58(a)) || [b, c, d].some((k) => txKeys(t).has(b58(k))));
    const expect1 = (list: Record<string, TxFilter>) =>
      inTopics.flatMap((t) => {
        const names = Object.keys(list).filter((n) => txPasses(list[n]!, t));
        return names.length ? [`${hex(t.signatures[0]!)} ${sorted(names).join(',')}`] : [];
      });
    const wantTx = expect1(filters);
    const wantStatus = expect1(statusFilters);
    expect(wantTx.length).toBeGreaterThan(3);
    expect(wantStatus.length).toBeGreaterThan(0);
    await waitFor(() => r.of('transaction').length >= wantTx.length && r.of('transactionStatus').length >= wantStatus.length, { what: 'transactions' });
    // A later matching transaction proves nothing else was still on its way.
    const last = txEvent(s, [a]);
    await pub.publish([{ kind: 'transactions', event: last }]);
    await waitFor(() => r.of('transaction').some((u) => hex(u.transaction.transaction!.signature) === hex(last.signatures[0]!)), { what: 'last' });
    const got = r.of('transaction').filter((u) => hex(u.transaction.transaction!.signature) !== hex(last.signatures[0]!));
    expect(sorted(got.map((u) => `${hex(u.transaction.transaction!.signature)} ${sorted(u.filters).join(',')}`))).toEqual(sorted(wantTx));
    expect(sorted(r.of('transactionStatus').map((u) => `${hex(u.transactionStatus.signature)} ${sorted(u.filters).join(',')}`))).toEqual(sorted(wantStatus));

    // The full transaction and its meta, as Yellowstone sends them.
    const failed = got.find((u) => hex(u.transaction.transaction!.signature) === hex(txs[2]!.signatures[0]!))!;
    expect(failed.transaction.slot).toBe(s.toString());
    expect(failed.transaction.transaction!.meta!.fee).toBe('5000');
    expect(failed.transaction.transaction!.meta!.err).toBeDefined();
    expect(failed.transaction.transaction!.transaction!.message!.accountKeys.map(hex)).toEqual([hex(b), hex(c)]);
    expect(failed.createdAt).toBeInstanceOf(Date);
    const loaded = got.find((u) => hex(u.transaction.transaction!.signature) === hex(txs[3]!.signatures[0]!))!;
    expect(loaded.transaction.transaction!.meta!.loadedWritableAddresses.map(hex)).toEqual([hex(a)]);
    const vote = got.find((u) => hex(u.transaction.transaction!.signature) === hex(txs[1]!.signatures[0]!))!;
    expect(vote.transaction.transaction!.isVote).toBe(true);
  });
});
