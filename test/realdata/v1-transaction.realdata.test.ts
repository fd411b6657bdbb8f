/* eslint-disable @typescript-eslint/no-explicit-any -- JSON and proto-loader answers are checked by value */
// Issue 18, item 5: the real mainnet v1 (SIMD-0385) transaction (pump record 23, read in place from
// ../shared/data/mainnet) end to end. `slotstream all --source file` (the run's broker, embedded ClickHouse, one
// process) reads it from a JSON-lines file as the file source's users write them, and it comes back out of
// getTransaction in every encoding (`version: 1`, transactionConfig, the wire bytes as signed), getBlock,
// getSignaturesForAddress, signatureSubscribe, geyser.Geyser (the real Yellowstone client: Message.config)
// and stream.Stream (replayed from its slot). Before v1 support the file source refused the line
// ("truncated at byte 1346: expected 64 bytes of signature").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitmentLevel } from '@triton-one/yellowstone-grpc';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectGeyser, geyserRequest, GeyserRecorder, type GeyserClient } from '../support/geyser/client.js';
import { newClient, subscribe } from '../support/grpc/clients.js';
import { waitFor } from '../support/harness/kafka.js';
import { readPumpV1Transaction } from '../support/mainnet/data.js';
import { startAll, type AllProcess } from '../support/cli/all-process.js';
import { onRunBroker } from '../support/cli/run-broker.js';

const record = readPumpV1Transaction();
const SLOT = record.slot!;
const wire = Buffer.from(record.wire_base64, 'base64');
const meta = record.meta as any;
const payer = 'J9TYAsWWidbrcZybmLSfrLzryANf4CgJBLdvwdGuC8MB';
const CONFIG = { priorityFee: 300_000, computeUnitLimit: 315_000, loadedAccountsDataSizeLimit: 67_108_864, heapSize: null };

/** The block of one transaction, as file-source lines: processed with its meta, the transaction with its
 * full meta (inner instruction data base64, as the format has it), then confirmed and finalized. */
function chainFile(): string {
  const innerInstructions = meta.innerInstructions.map((g: any) => ({
    index: g.index,
    instructions: g.instructions.map((ix: any) => ({ ...ix, data: Buffer.from(bs58.decode(ix.data)).toString('base64') })),
  }));
  const lines = [
    {
      type: 'slot',
      slot: SLOT,
      status: 'processed',
      block: {
        parentSlot: SLOT - 1,
        blockhash: bs58.encode(Buffer.alloc(32, 7)),
        blockHeight: SLOT - 1000,
        blockTime: record.blockTime,
        leader: payer,
        transactionCount: 1,
        voteTransactionCount: 0,
      },
    },
    {
      type: 'transaction',
      slot: SLOT,
      index: 0,
      tx: record.wire_base64,
      err: null,
      fee: meta.fee,
      blockTime: record.blockTime,
      loadedWritable: [],
      loadedReadonly: [],
      preBalances: meta.preBalances,
      postBalances: meta.postBalances,
      preTokenBalances: meta.preTokenBalances,
      postTokenBalances: meta.postTokenBalances,
      innerInstructions,
      logMessages: meta.logMessages,
      computeUnitsConsumed: meta.computeUnitsConsumed,
      costUnits: meta.costUnits,
      returnData: null,
      rewards: [],
    },
    { type: 'slot', slot: SLOT, status: 'confirmed' },
    { type: 'slot', slot: SLOT, status: 'finalized' },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

let all: AllProcess | undefined;
let dir: string;
let ports: AllProcess['ports'];

const rpc = (method: string, params: unknown[] = []) =>
  all!.rpc(method, params) as Promise<{ result?: any; error?: { code: number; message: string } }>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotstream-v1-'));
  writeFileSync(join(dir, 'chain.jsonl'), chainFile());
  all = await startAll(join(dir, 'data'), [
    '--source',
    'file',
    '--source-path',
    join(dir, 'chain.jsonl'),
    ...onRunBroker('v1-transaction'),
    '--stream-processes',
    '0',
  ]);
  ports = all.ports;
  await waitFor(async () => (await rpc('getTransaction', [record.signature, { maxSupportedTransactionVersion: 1 }])).result != null, {
    timeoutMs: 300_000,
    what: `the v1 transaction in the views (output so far:\n${all.output().slice(-3000)})`,
  });
});

afterAll(async () => {
  await all?.stop(30_000);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the mainnet v1 transaction through the file source', () => {
  it('getTransaction json: version 1, the message with transactionConfig and no lookups, the recorded meta', async () => {
    const r = (await rpc('getTransaction', [record.signature, { encoding: 'json', maxSupportedTransactionVersion: 1 }])).result;
    expect(r.version).toBe(1);
    expect([r.slot, r.blockTime]).toEqual([SLOT, record.blockTime]);
    expect(r.transaction.signatures).toEqual([record.signature]);
    expect(r.transaction.message.transactionConfig).toEqual(CONFIG);
    expect(r.transaction.message).not.toHaveProperty('addressTableLookups');
    expect(r.transaction.message.header).toEqual({
      numRequiredSignatures: 1,
      numReadonlySignedAccounts: 0,
      numReadonlyUnsignedAccounts: 16,
    });
    expect(r.transaction.message.accountKeys).toHaveLength(34);
    expect(r.transaction.message.accountKeys[0]).toBe(payer);
    // The meta as recorded, but token amounts' uiAmount (its zero rule is issue 18's item 4).
    const noUi = (m: any) => ({
      ...m,
      preTokenBalances: m.preTokenBalances.map((t: any) => ({ ...t, uiTokenAmount: { ...t.uiTokenAmount, uiAmount: undefined } })),
      postTokenBalances: m.postTokenBalances.map((t: any) => ({ ...t, uiTokenAmount: { ...t.uiTokenAmount, uiAmount: undefined } })),
    });
    expect(noUi(r.meta)).toEqual(noUi(meta));
  });

  it('getTransaction base64, base58 and binary: the wire bytes as signed', async () => {
    const b64 = (await rpc('getTransaction', [record.signature, { encoding: 'base64', maxSupportedTransactionVersion: 1 }])).result;
    expect(b64.transaction).toEqual([record.wire_base64, 'base64']);
    expect(b64.version).toBe(1);
    const b58 = (await rpc('getTransaction', [record.signature, { encoding: 'base58', maxSupportedTransactionVersion: 1 }])).result;
    expect(b58.transaction).toEqual([bs58.encode(wire), 'base58']);
    const binary = (await rpc('getTransaction', [record.signature, 'binary'])).error;
    expect(binary?.code).toBe(-32015); // a bare encoding string names no maximum
  });

  it('getTransaction jsonParsed: transactionConfig, every key from the transaction', async () => {
    const r = (await rpc('getTransaction', [record.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 1 }])).result;
    expect(r.version).toBe(1);
    expect(r.transaction.message.transactionConfig).toEqual(CONFIG);
    expect(r.transaction.message).not.toHaveProperty('addressTableLookups');
    expect(r.transaction.message.accountKeys.every((k: any) => k.source === 'transaction')).toBe(true);
    expect(r.transaction.message.accountKeys[0]).toEqual({ pubkey: payer, writable: true, signer: true, source: 'transaction' });
  });

  it('maxSupportedTransactionVersion as Agave: -32015 naming version 1 without it or with 0', async () => {
    const message =
      'Transaction version (1) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 1';
    for (const config of [{}, { maxSupportedTransactionVersion: 0 }, { encoding: 'base64', maxSupportedTransactionVersion: 0 }]) {
      expect((await rpc('getTransaction', [record.signature, config])).error).toEqual({ code: -32015, message });
      expect((await rpc('getBlock', [SLOT, config])).error).toEqual({ code: -32015, message });
    }
  });

  it('getBlock and getSignaturesForAddress list it', async () => {
    const block = (await rpc('getBlock', [SLOT, { maxSupportedTransactionVersion: 1 }])).result;
    expect(block.transactions).toHaveLength(1);
    expect(block.transactions[0].version).toBe(1);
    expect(block.transactions[0].transaction.message.transactionConfig).toEqual(CONFIG);
    const sigs = (await rpc('getBlock', [SLOT, { transactionDetails: 'signatures', maxSupportedTransactionVersion: 1 }])).result;
    expect(sigs.signatures).toEqual([record.signature]);
    const accounts = (await rpc('getBlock', [SLOT, { transactionDetails: 'accounts', maxSupportedTransactionVersion: 1 }])).result;
    expect(accounts.transactions[0].version).toBe(1);
    // getBlock may answer from the head cache before the views hold the slot; the history read is the views'.
    const history = await waitFor(
      async () => {
        const r = (await rpc('getSignaturesForAddress', [payer])).result;
        return Array.isArray(r) && r.length > 0 ? r : undefined;
      },
      { timeoutMs: 300_000, what: "the views listing the payer's signature" },
    );
    expect(history).toEqual([
      {
        signature: record.signature,
        slot: SLOT,
        err: null,
        memo: null,
        blockTime: record.blockTime,
        confirmationStatus: 'finalized',
        transactionIndex: 0,
      },
    ]);
  });

  it('signatureSubscribe notifies it (PubSub)', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${ports.pubsub}/`);
    const got: any[] = [];
    ws.on('message', (m) => got.push(JSON.parse(m.toString())));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'signatureSubscribe', params: [record.signature, { commitment: 'finalized' }] }),
    );
    await waitFor(() => got.some((m) => m.method === 'signatureNotification'), { timeoutMs: 300_000, what: 'a signature notification' });
    expect(got.find((m) => m.method === 'signatureNotification').params.result.value).toEqual({ err: null });
    ws.close();
  });

  it('geyser.Geyser (the real Yellowstone client) replays it with Message.config', async () => {
    const client: GeyserClient = await connectGeyser(ports.grpc);
    const rec = await GeyserRecorder.open(client);
    rec.write(
      geyserRequest({
        transactions: { pump: { accountInclude: [payer], accountExclude: [], accountRequired: [] } },
        commitment: CommitmentLevel.FINALIZED,
        fromSlot: String(SLOT),
      }),
    );
    await waitFor(() => rec.of('transaction').length > 0 || rec.error !== undefined, {
      timeoutMs: 300_000,
      what: 'the v1 transaction on geyser.Geyser',
    });
    expect(rec.error).toBeUndefined();
    const info = rec.of('transaction')[0]!.transaction.transaction!;
    expect(bs58.encode(info.signature)).toBe(record.signature);
    const message = info.transaction!.message!;
    expect(message.config).toEqual({
      priorityFee: '300000',
      computeUnitLimit: 315_000,
      loadedAccountsDataSizeLimit: 67_108_864,
      heapSize: undefined,
    });
    expect(message.versioned).toBe(true);
    expect(message.addressTableLookups).toEqual([]);
    expect(info.meta!.fee).toBe(String(meta.fee));
    rec.close();
  });

  it('stream.Stream replays it: header, keys, instructions and signature (its message has no place for the config)', async () => {
    const client = newClient(ports.grpc);
    const rec = subscribe(client);
    rec.send({ transactions: { pump: { account_include: [payer] } }, accounts: {}, from_slot: String(SLOT) });
    await waitFor(() => rec.of('transaction').length > 0 || rec.error !== undefined, {
      timeoutMs: 300_000,
      what: 'the v1 transaction on stream.Stream',
    });
    expect(rec.error).toBeUndefined();
    const info = rec.of('transaction')[0].transaction.transaction;
    expect(bs58.encode(info.signature)).toBe(record.signature);
    expect(info.account_keys).toHaveLength(34);
    expect(info.instructions).toHaveLength(3);
    expect(info.address_table_lookups).toEqual([]);
    expect(info.num_readonly_unsigned_accounts).toBe(16);
    rec.cancel();
    client.close();
  });
});
