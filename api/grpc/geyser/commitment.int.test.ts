// What Yellowstone's block machine does at the commitment levels, against the real api fed by the real broker
// and driven by the REAL @triton-one/yellowstone-grpc client (yellowstone-grpc-geyser block_reconstruction.rs
// tests block_machine_storage_account_deduplication_end_to_end and
// block_machine_storage_fills_missing_commitment_levels), live and through a from_slot replay:
// - at CONFIRMED/FINALIZED an account written twice in a slot arrives once, its higher write_version, before the
//   status that released it, and not at all when that write does not match the stream's filters (Yellowstone
//   deduplicates before filtering); PROCESSED gets both writes (stream.Stream's commitment extension does the same);
// - a slot reported processed then finalized gets its missing CONFIRMED status before FINALIZED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import type { Kafka } from '../../../platform/kafka/index.js';
import { SlotEvent, SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import {
  accountEvent,
  key,
  newClient,
  subscribe,
  TestPublisher,
  txEvent,
  type Msg,
  type Recorder,
} from '../../../test/support/grpc/clients.js';
import { connectGeyser, geyserRequest, GeyserRecorder, type GeyserClient } from '../../../test/support/geyser/client.js';
import type { TestGrpc } from '../../../test/support/grpc/server.js';
import { framedSlot } from '../../../test/support/ingest/framed-slot.js';
import { startFedGrpc } from '../../../test/support/grpc/fed-server.js';

const b58 = (b: Uint8Array): string => bs58.encode(b);
const { SLOT_STATUS_PROCESSED: PROCESSED, SLOT_STATUS_CONFIRMED: CONFIRMED, SLOT_STATUS_FINALIZED: FINALIZED } = SlotStatus;

const status = (slot: bigint, s: SlotStatus): ChainEvent => ({ kind: 'slots', event: SlotEvent.fromPartial({ slot, status: s }) });

describe('geyser.Geyser at the commitment levels (real Yellowstone client)', () => {
  const topics = topicNames(uniquePrefix('geyser-commitment'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: GeyserClient;
  let streamClient: Msg;
  const open: GeyserRecorder[] = [];
  const openStreams: Recorder[] = [];
  let slot = 7000n;

  beforeAll(async () => {
    ({ kafka, pub, server } = await startFedGrpc({ clientId: 'geyser-commitment-test', topics, partitions: 1, pingIntervalMs: 300 }));
    client = await connectGeyser(server.port);
    streamClient = newClient(server.port);
  });

  afterAll(async () => {
    for (const r of open) r.close();
    for (const r of openStreams) r.cancel();
    streamClient?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  async function geyser(req: Parameters<typeof geyserRequest>[0]): Promise<GeyserRecorder> {
    const r = await GeyserRecorder.open(client);
    open.push(r);
    await r.request(geyserRequest(req));
    return r;
  }

  /** What a stream received, in order, as short strings: `account <write_version>`, `tx`, `slot <slot> <status>`. */
  const got = (r: GeyserRecorder, s: bigint): string[] =>
    r.updates.flatMap((u) => {
      if (u.account && BigInt(u.account.slot) === s) return [`account ${u.account.account!.writeVersion}`];
      if (u.transaction && BigInt(u.transaction.slot) === s) return ['tx'];
      if (u.slot && BigInt(u.slot.slot) === s) return [`slot ${u.slot.status}`];
      return [];
    });

  it('an account written twice in a slot (write versions N and N+1) arrives once, the higher, at confirmed and finalized; twice at processed; live and replayed', async () => {
    const s = (slot += 10n);
    const [p, owner] = [key(), key()];
    const accounts = { p: { account: [b58(p)], owner: [], filters: [] } };
    const slots = (name: string) => ({ [name]: { filterByCommitment: true } });
    const processed = await geyser({ accounts, commitment: 0 });
    const confirmed = await geyser({ accounts, commitment: 1, slots: slots('c') });
    const finalized = await geyser({ accounts, commitment: 2, slots: slots('f') });
    // Yellowstone deduplicates before its filters: when the slot's last write does not match (lamports 1 here),
    // a confirmed stream gets none of the account's writes in the slot.
    const rich = { r: { account: [b58(p)], owner: [], filters: [{ lamports: { gt: '1' } }] } };
    const richProcessed = await geyser({ accounts: rich, commitment: 0 });
    const richConfirmed = await geyser({ accounts: rich, commitment: 1, slots: slots('c') });
    // stream.Stream's commitment extension follows the same rule (its README).
    const stream = subscribe(streamClient);
    openStreams.push(stream);
    stream.send({ accounts: { p: { account: [b58(p)] } }, commitment: 'CONFIRMED' });
    stream.send({ ping: { id: 1 } });
    await waitFor(() => stream.of('pong').length === 1, { what: 'stream.Stream request applied' });

    const N = 1360n;
    await pub.publish([
      ...framedSlot(s, [
        { kind: 'accounts', event: accountEvent(s, p, owner, Buffer.from([1]), { writeVersion: N, lamports: 2n }) },
        { kind: 'accounts', event: accountEvent(s, p, owner, Buffer.from([2]), { writeVersion: N + 1n, lamports: 1n }) },
      ]),
      status(s, CONFIRMED),
      status(s, FINALIZED),
    ]);
    await waitFor(() => got(finalized, s).includes(`slot ${FINALIZED}`) && processed.of('account').length === 2, {
      what: 'finalized slot',
    });
    await waitFor(() => got(richConfirmed, s).length === 1, { what: 'confirmed status on the lamports stream' });
    for (const r of [processed, confirmed, finalized, richProcessed, richConfirmed]) await r.sync();
    await waitFor(() => stream.of('account').length >= 1, { what: 'stream.Stream account' });

    expect(got(processed, s)).toEqual([`account ${N}`, `account ${N + 1n}`]);
    // The surviving write goes out when the slot is released, before the status that released it.
    expect(got(confirmed, s)).toEqual([`account ${N + 1n}`, `slot ${CONFIRMED}`]);
    expect(got(finalized, s)).toEqual([`account ${N + 1n}`, `slot ${FINALIZED}`]);
    expect(confirmed.of('account')[0]!.account.account!.lamports).toBe('1');
    expect(got(richProcessed, s)).toEqual([`account ${N}`]);
    expect(got(richConfirmed, s)).toEqual([`slot ${CONFIRMED}`]);
    stream.send({ ping: { id: 2 } });
    await waitFor(() => stream.of('pong').length === 2, { what: 'stream.Stream pong' });
    expect(stream.of('account').map((u) => String(u.account.account.write_version))).toEqual([String(N + 1n)]);

    // from_slot replays follow the same rules (the live statuses already know the slot is finalized).
    const replayConfirmed = await geyser({ accounts, commitment: 1, slots: slots('c'), fromSlot: s.toString() });
    const replayProcessed = await geyser({ accounts, commitment: 0, fromSlot: s.toString() });
    const replayRich = await geyser({ accounts: rich, commitment: 1, slots: slots('c'), fromSlot: s.toString() });
    await waitFor(
      () =>
        got(replayConfirmed, s).includes(`slot ${CONFIRMED}`) &&
        got(replayRich, s).includes(`slot ${CONFIRMED}`) &&
        replayProcessed.of('account').length === 2,
      { what: 'replayed slot' },
    );
    for (const r of [replayConfirmed, replayRich]) await r.sync();
    expect(got(replayConfirmed, s)).toEqual([`account ${N + 1n}`, `slot ${CONFIRMED}`]);
    expect(got(replayRich, s)).toEqual([`slot ${CONFIRMED}`]);
    expect(got(replayProcessed, s)).toEqual([`account ${N}`, `account ${N + 1n}`]);
  });

  it('a slot reported processed then finalized gets its CONFIRMED status before FINALIZED, live and replayed', async () => {
    const s = (slot += 10n);
    const k = key();
    const transactions = { t: { accountInclude: [b58(k)], accountExclude: [], accountRequired: [] } };
    const every = await geyser({ slots: { all: {} }, commitment: 0 });
    const confirmed = await geyser({ slots: { c: { filterByCommitment: true } }, transactions, commitment: 1 });
    const finalized = await geyser({ slots: { f: { filterByCommitment: true } }, commitment: 2 });

    await pub.publish([...framedSlot(s, [{ kind: 'transactions', event: txEvent(s, [k]) }]), status(s, FINALIZED)]);
    await waitFor(() => got(every, s).includes(`slot ${FINALIZED}`) && got(confirmed, s).length === 2 && got(finalized, s).length === 1, {
      what: 'finalized status',
    });
    for (const r of [every, confirmed, finalized]) await r.sync();
    expect(got(every, s)).toEqual([`slot ${PROCESSED}`, `slot ${CONFIRMED}`, `slot ${FINALIZED}`]);
    expect(got(confirmed, s)).toEqual(['tx', `slot ${CONFIRMED}`]);
    expect(got(finalized, s)).toEqual([`slot ${FINALIZED}`]);

    // A late confirmed record is not sent again (each level once, in order).
    await pub.publish([status(s, CONFIRMED)]);
    const after = (slot += 1n);
    await pub.publish(framedSlot(after, []));
    await waitFor(() => got(every, after).length === 1, { what: 'next slot' });
    expect(got(every, s)).toEqual([`slot ${PROCESSED}`, `slot ${CONFIRMED}`, `slot ${FINALIZED}`]);

    const replay = await geyser({ slots: { all: {} }, commitment: 0, fromSlot: s.toString() });
    await waitFor(() => got(replay, after).length === 1, { what: 'replayed slots' });
    expect(got(replay, s)).toEqual([`slot ${PROCESSED}`, `slot ${CONFIRMED}`, `slot ${FINALIZED}`]);
  });
});
