// Live subscriptions from slotstream's PubSub endpoint with unmodified @solana/web3.js 1.x and @solana/kit:
// the WebSocket URL goes where a validator's would (ws://…:8900, the JSON-RPC port + 1, as Agave).
//
//   npm start                          # in another terminal: the whole service (PubSub on 127.0.0.1:8900)
//   npx tsx examples/web3-pubsub.ts    # slots and roots, every transaction's logs, wallets, one account
//
// Options: --http URL (default http://127.0.0.1:8899, or SLOTSTREAM_RPC), --ws URL (default
// ws://127.0.0.1:8900, or SLOTSTREAM_WS), --token T (or SLOTSTREAM_TOKEN; browsers and web3.js cannot set
// headers on a WebSocket, so the token goes in the URL: ws://host:8900/?token=T), --seconds N (default 10).
import { parseArgs } from 'node:util';
import { Connection, PublicKey } from '@solana/web3.js';
import { createSolanaRpcSubscriptions } from '@solana/kit';

const { values: opts } = parseArgs({
  options: {
    http: { type: 'string', default: process.env.SLOTSTREAM_RPC ?? 'http://127.0.0.1:8899' },
    ws: { type: 'string', default: process.env.SLOTSTREAM_WS ?? 'ws://127.0.0.1:8900' },
    token: { type: 'string', default: process.env.SLOTSTREAM_TOKEN ?? '' },
    seconds: { type: 'string', default: '10' },
  },
});
const wsUrl = opts.token ? `${opts.ws.replace(/\/?$/, '/')}?token=${encodeURIComponent(opts.token)}` : opts.ws;
const headers = opts.token ? { authorization: `Bearer ${opts.token}` } : undefined;

// web3.js 1.x: Connection's on…Change methods use `wsEndpoint`.
const connection = new Connection(opts.http, { commitment: 'confirmed', wsEndpoint: wsUrl, httpHeaders: headers });
let logs = 0;
let firstAccount: string | undefined;
const subs = [
  connection.onSlotChange((s) => s.slot % 10 === 0 && console.log(`web3.js slot ${s.slot} (parent ${s.parent}, root ${s.root})`)),
  connection.onRootChange((root) => root % 10 === 0 && console.log(`web3.js root ${root}`)),
  connection.onLogs(
    'all',
    (l, ctx) => {
      if (logs++ === 0) console.log(`web3.js first logs at slot ${ctx.slot}: ${l.signature} ${JSON.stringify(l.logs.slice(0, 2))}`);
    },
    'processed',
  ),
];
// Wallets (system program accounts without data) as they change at confirmed, then one of them on its own.
const SYSTEM_PROGRAM = new PublicKey('11111111111111111111111111111111');
let walletChanges = 0;
const wallets = connection.onProgramAccountChange(
  SYSTEM_PROGRAM,
  (k, ctx) => {
    if (walletChanges++ >= 3) return;
    console.log(`web3.js wallet ${k.accountId.toBase58()} changed at slot ${ctx.slot}: ${k.accountInfo.lamports} lamports`);
    if (firstAccount !== undefined) return;
    firstAccount = k.accountId.toBase58();
    subs.push(
      connection.onAccountChange(k.accountId, (a, c) => console.log(`web3.js ${firstAccount} at slot ${c.slot}: ${a.lamports} lamports`)),
    );
  },
  { commitment: 'confirmed', filters: [{ dataSize: 0 }] },
);

// kit: the same endpoint through createSolanaRpcSubscriptions; notifications are async iterables.
const abort = new AbortController();
const kit = createSolanaRpcSubscriptions(wsUrl);
void (async () => {
  let n = 0;
  for await (const s of await kit.slotNotifications().subscribe({ abortSignal: abort.signal })) {
    if (n++ % 10 === 0) console.log(`kit slot ${s.slot} (parent ${s.parent}, root ${s.root})`);
  }
})().catch(() => undefined);

await new Promise((r) => setTimeout(r, Number(opts.seconds) * 1000));
console.log(`${logs} transactions' logs and ${walletChanges} wallet changes in ${opts.seconds} s`);
abort.abort();
await connection.removeProgramAccountChangeListener(wallets);
await connection.removeSlotChangeListener(subs[0]!);
await connection.removeRootChangeListener(subs[1]!);
await connection.removeOnLogsListener(subs[2]!);
if (subs[3] !== undefined) await connection.removeAccountChangeListener(subs[3]);
process.exit(0);
