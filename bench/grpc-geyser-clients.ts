// geyser.Geyser latency clients for bench/grpc.ts (filter-clients role with BENCH_SERVICE=geyser): grpc-js
// with the codecs published in @triton-one/yellowstone-grpc (its generated geyser.js; the package ships no
// service definition, so the path is Yellowstone's /geyser.Geyser/Subscribe), the same filters as the
// stream.Stream clients of bench/grpc-clients.ts, and the same record of each transaction update.
import * as grpc from '@grpc/grpc-js';
import type { SubscribeRequest, SubscribeUpdate } from '@triton-one/yellowstone-grpc';
import type { Received } from './grpc-clients.js';
import { GEYSER_SUBSCRIBE, geyserCodecs } from '../test/support/grpc/geyser-codecs.js';

const GeyserClient = grpc.makeGenericClientConstructor(GEYSER_SUBSCRIBE, 'geyser.Geyser');

/** One Subscribe stream per entry of `filters` (base58 keys): transactions including any of the keys, and
 * the account writes of the same keys, at processed. Decoded in the receive callback, which stamps them. */
export function openFiltered(
  port: number,
  filters: string[][],
  base: number,
): {
  setCounting(on: boolean): void;
  take(): { delivered: number; received: Received[] };
  close(): void;
} {
  let counting = false;
  let delivered = 0;
  let received: Received[] = [];
  const open: { call: grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate>; client: grpc.Client }[] = [];
  filters.forEach((mine, j) => {
    const i = base + j;
    const client = new GeyserClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.use_local_subchannel_pool': 1,
      'grpc.max_receive_message_length': -1,
    });
    const call = (client as unknown as { subscribe(): grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate> }).subscribe();
    call.on('data', (u: SubscribeUpdate) => {
      const at = Date.now(); // wall clock, as created_at and the bench's send times
      if (!counting || u.ping || u.pong) return;
      delivered++;
      const tx = u.transaction?.transaction;
      if (tx && u.createdAt) received.push([Buffer.from(tx.signature).toString('base64'), at, u.createdAt.getTime()]);
    });
    call.on('error', (e: grpc.ServiceError) => {
      if (e.code !== grpc.status.CANCELLED) process.stderr.write(`[bench:grpc geyser clients] stream error: ${e.message}\n`);
    });
    call.write(
      geyserCodecs.SubscribeRequest.fromPartial({
        transactions: { [`tx${i}`]: { accountInclude: mine, accountExclude: [], accountRequired: [] } },
        accounts: { [`acc${i}`]: { account: mine, owner: [], filters: [] } },
      }),
    );
    open.push({ call, client });
  });
  return {
    setCounting: (on) => void (counting = on),
    take: () => {
      const out = { delivered, received };
      delivered = 0;
      received = [];
      return out;
    },
    close: () => {
      for (const o of open) {
        o.call.cancel();
        o.client.close();
      }
    },
  };
}
