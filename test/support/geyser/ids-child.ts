// A geyser.Geyser client in its own process (the real @triton-one/yellowstone-grpc client) that the test can kill:
// the napi stream's destroy() stops reading but leaves the server's stream open (the server goes on writing
// into HTTP/2's windows), so a client that stops for good is a process that dies. Arguments: <port> <request JSON
// (a SubscribeRequest; u64 fields as strings)>. IPC: child -> { ready: true } once subscribed, then { id } for each
// transaction (`<slot>:tx:<signature hex>`) and account (`<slot>:acc:<pubkey hex>`) update, in arrival order.
import type { SubscribeUpdate } from '@triton-one/yellowstone-grpc';
import { connectGeyser, geyserRequest } from './client.js';

const [port, request] = process.argv.slice(2);
const send = (m: object): void => void process.send?.(m);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

const stream = await (await connectGeyser(Number(port))).subscribe();
stream.on('data', (u: SubscribeUpdate) => {
  if (u.transaction?.transaction) send({ id: `${u.transaction.slot}:tx:${hex(u.transaction.transaction.signature)}` });
  else if (u.account?.account) send({ id: `${u.account.slot}:acc:${hex(u.account.account.pubkey)}` });
});
stream.on('error', () => undefined);
stream.write(geyserRequest(JSON.parse(request!) as Parameters<typeof geyserRequest>[0]));
send({ ready: true });
