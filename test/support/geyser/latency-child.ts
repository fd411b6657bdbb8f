// A geyser.Geyser client in its own process (the real @triton-one/yellowstone-grpc client), so its
// receive callbacks do not share an event loop with the api under test. It subscribes to the transactions
// including one account and keeps each transaction update's api-internal latency: the receive callback's
// wall clock minus created_at (the moment the api read the record). Arguments: <port> <account base58>.
// IPC: child -> { ready: true } once the filter is applied; parent -> { cmd: 'count' } -> { count: n },
// { cmd: 'take' } -> { take: number[] } (the list only when asked: serializing it delays receive callbacks).
import type { SubscribeUpdate } from '@triton-one/yellowstone-grpc';
import { connectGeyser, geyserRequest } from './client.js';

const [port, account] = process.argv.slice(2);
const send = (m: object): void => void process.send?.(m);
const latencies: number[] = [];

const stream = await (await connectGeyser(Number(port))).subscribe();
const applied = new Promise<void>((resolve) => {
  stream.on('data', (u: SubscribeUpdate) => {
    const now = Date.now();
    if (u.transaction && u.createdAt) latencies.push(now - u.createdAt.getTime());
    // The pong answers the ping written after the request: the filter is in place.
    else if (u.pong?.id === 1) resolve();
  });
});
stream.on('error', () => undefined);
stream.write(geyserRequest({ transactions: { a: { accountInclude: [account!], accountExclude: [], accountRequired: [] } } }));
stream.write(geyserRequest({ ping: { id: 1 } }));
await applied;
process.on('message', (m: { cmd: string }) => {
  if (m.cmd === 'count') send({ count: latencies.length });
  else if (m.cmd === 'take') send({ take: latencies });
  else if (m.cmd === 'stop') {
    stream.destroy();
    process.exit(0);
  }
});
send({ ready: true });
