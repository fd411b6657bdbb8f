// Counting clients for bench/grpc.ts: match-all Subscribe streams whose responses are not decoded (a
// pass-through deserializer), so the client side costs as little as possible.
import * as grpc from '@grpc/grpc-js';
import { StreamService, SubscribeRequest } from '../proto/gen/stream.js';

const RawService = { subscribe: { ...StreamService.subscribe, responseDeserialize: (b: Buffer) => b } };
const RawClient = grpc.makeGenericClientConstructor(RawService as unknown as grpc.ServiceDefinition, 'stream.Stream');

export interface CountStats {
  n: number;
  /** Epoch ms (fractional) of the first and last counted update. */
  first: number;
  last: number;
}

export function openCounting(port: number, streams: number): { stats(): CountStats; close(): void } {
  const stats: CountStats = { n: 0, first: 0, last: 0 };
  const open: { call: grpc.ClientDuplexStream<SubscribeRequest, Buffer>; client: grpc.Client }[] = [];
  for (let i = 0; i < streams; i++) {
    const client = new RawClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.use_local_subchannel_pool': 1,
      'grpc.max_receive_message_length': -1,
    });
    const call = (client as unknown as { subscribe(): grpc.ClientDuplexStream<SubscribeRequest, Buffer> }).subscribe();
    call.on('data', (m: Buffer) => {
      if (m[0] !== 0x0a) return; // only updates carrying `filters` (not server pings)
      const now = performance.timeOrigin + performance.now();
      if (stats.n === 0) stats.first = now;
      stats.last = now;
      stats.n++;
    });
    call.on('error', () => undefined);
    call.write(SubscribeRequest.fromPartial({ transactions: { all: {} } }));
    open.push({ call, client });
  }
  return {
    stats: () => ({ ...stats }),
    close: () => {
      for (const o of open) {
        o.call.cancel();
        o.client.close();
      }
    },
  };
}
