// The real clients over TLS, unmodified, in their own process: started with NODE_EXTRA_CA_CERTS (Node's clients:
// web3.js, kit, ws) and SSL_CERT_FILE (the Yellowstone client's rustls) naming the test's certificates, the way a
// user trusts a private CA. Each call's outcome goes back to the parent as one message.
// argv: grpcPort rpcPort pubsubPort
import yellowstone from '@triton-one/yellowstone-grpc';
import { Connection } from '@solana/web3.js';
import { createSolanaRpc, createSolanaRpcSubscriptions } from '@solana/kit';

const [grpcPort, rpcPort, pubsubPort] = process.argv.slice(2);
const Client: typeof yellowstone.default =
  (yellowstone as unknown as { default?: typeof yellowstone.default }).default ?? (yellowstone as unknown as typeof yellowstone.default);

const outcome = async (what: string, run: () => Promise<unknown>): Promise<[string, string]> => {
  try {
    return [what, `ok ${JSON.stringify(await run())}`];
  } catch (err) {
    let text = '';
    for (let c: unknown = err; c instanceof Error; c = c.cause) text += `${c.message} <- `;
    return [what, `error ${text}`];
  }
};

async function run(): Promise<Record<string, string>> {
  const results = await Promise.all([
    outcome('yellowstone', async () => {
      const c = new Client(`https://localhost:${grpcPort}`, undefined, undefined);
      await c.connect();
      return (await c.ping(7)).count;
    }),
    outcome('web3 https', async () => (await new Connection(`https://localhost:${rpcPort}/`).getVersion())['solana-core']),
    outcome('kit https', async () => (await createSolanaRpc(`https://localhost:${rpcPort}/`).getVersion().send())['solana-core']),
    outcome('web3 wss', async () => {
      const conn = new Connection(`https://localhost:${rpcPort}/`, { wsEndpoint: `wss://localhost:${pubsubPort}/` });
      const slot = await new Promise<number>((resolve) => {
        const id = conn.onSlotChange((s) => {
          void conn.removeSlotChangeListener(id);
          resolve(s.slot);
        });
      });
      return slot;
    }),
    outcome('kit wss', async () => {
      const abort = new AbortController();
      const subs = createSolanaRpcSubscriptions(`wss://localhost:${pubsubPort}/`);
      const it = await subs.slotNotifications().subscribe({ abortSignal: abort.signal });
      for await (const n of it) {
        abort.abort();
        return Number(n.slot);
      }
      return undefined;
    }),
  ]);
  return Object.fromEntries(results);
}

void run().then((r) => {
  process.send!(r);
  process.exit(0);
});
