// Issue 18 item 10: filters named `__proto__`, `constructor` and `prototype` work on both gRPC services.
// Yellowstone accepts any name within its length limit; a decoder that assigns map entries onto a plain object
// turns `__proto__` into the object's prototype and the filter vanishes (no update, no error). Each name here is
// a transactions filter and an accounts filter on one key, so every matching update must name all three.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import type { Kafka } from '../../platform/kafka/index.js';
import { topicNames } from '../../schemas/topics.js';
import { uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { accountEvent, key, newClient, subscribe, TestPublisher, txEvent, type Msg } from '../../test/support/grpc/clients.js';
import { connectGeyser, geyserRequest, GeyserRecorder, type GeyserClient } from '../../test/support/geyser/client.js';
import type { TestGrpc } from '../../test/support/grpc/server.js';
import { startFedGrpc } from '../../test/support/grpc/fed-server.js';

const NAMES = ['__proto__', 'constructor', 'prototype'] as const;

/** `{ [name]: filter }` for each name as OWN properties (an object literal's `__proto__:` would set the prototype). */
function byName<F>(filter: () => F): Record<string, F> {
  const out: Record<string, F> = {};
  for (const n of NAMES) Object.defineProperty(out, n, { value: filter(), enumerable: true, configurable: true, writable: true });
  return out;
}

describe('filters named __proto__, constructor and prototype', () => {
  const topics = topicNames(uniquePrefix('grpc-names'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let geyser: GeyserClient;
  let client: Msg;
  let slot = 7000n;

  beforeAll(async () => {
    ({ kafka, pub, server } = await startFedGrpc({ clientId: 'grpc-names-test', topics, partitions: 1, pingIntervalMs: 10_000 }));
    geyser = await connectGeyser(server.port);
    client = newClient(server.port);
  });

  afterAll(async () => {
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it('geyser.Geyser (real Yellowstone client): transactions, transactions_status and accounts updates name all three filters', async () => {
    const k = key();
    const r = await GeyserRecorder.open(geyser);
    try {
      const ks = bs58.encode(k);
      const tx = () => ({ accountInclude: [ks], accountExclude: [], accountRequired: [] });
      await r.request(
        geyserRequest({
          transactions: byName(tx),
          transactionsStatus: byName(tx),
          accounts: byName(() => ({ account: [ks], owner: [], filters: [] })),
        }),
      );
      const s = ++slot;
      await pub.publish([
        { kind: 'transactions', event: txEvent(s, [k, key()]) },
        { kind: 'accounts', event: accountEvent(s, k, key(), Buffer.from([1, 2, 3])) },
      ]);
      await waitFor(() => r.of('transaction').length >= 1 && r.of('transactionStatus').length >= 1 && r.of('account').length >= 1, {
        what: 'a transaction, a transaction status and an account update',
      });
      for (const kind of ['transaction', 'transactionStatus', 'account'] as const) {
        for (const u of r.of(kind)) expect([...u.filters].sort(), kind).toEqual([...NAMES].sort());
      }
      expect(r.error).toBeUndefined();
    } finally {
      r.close();
    }
  });

  it('stream.Stream: transaction and account updates name all three filters', async () => {
    const k = key();
    const r = subscribe(client);
    try {
      const ks = bs58.encode(k);
      r.send({ transactions: byName(() => ({ account_include: [ks] })), accounts: byName(() => ({ account: [ks] })) });
      r.send({ ping: { id: 1 } });
      await waitFor(() => r.of('pong').length === 1, { what: 'filters applied' });
      const s = ++slot;
      await pub.publish([
        { kind: 'transactions', event: txEvent(s, [k, key()]) },
        { kind: 'accounts', event: accountEvent(s, k, key(), Buffer.from([1, 2, 3])) },
      ]);
      await waitFor(() => r.of('transaction').length >= 1 && r.of('account').length >= 1, { what: 'a transaction and an account update' });
      for (const u of [...r.of('transaction'), ...r.of('account')]) expect([...(u.filters as string[])].sort()).toEqual([...NAMES].sort());
      expect(r.error).toBeUndefined();
    } finally {
      r.cancel();
    }
  });
});
