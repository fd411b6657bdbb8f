// slotstream as the read-side RPC of an unmodified @solana/web3.js 1.x and @solana/kit program: point both
// URLs at it (JSON-RPC over HTTP, PubSub over WebSocket) and nothing else changes.
//
//   npm start                        # in another terminal: the whole service (JSON-RPC on 127.0.0.1:8899)
//   npx tsx examples/jsonrpc.ts      # the newest finalized block, one of its transactions, balances
//
// Options: --http URL (default http://127.0.0.1:8899, or SLOTSTREAM_RPC), --ws URL (default
// ws://127.0.0.1:8900, or SLOTSTREAM_WS), --token T (sent as `Authorization: Bearer T`; or SLOTSTREAM_TOKEN).
import { parseArgs } from 'node:util';
import { Connection, PublicKey } from '@solana/web3.js';
import { address, createDefaultRpcTransport, createSolanaRpcFromTransport, signature } from '@solana/kit';

const { values: opts } = parseArgs({
  options: {
    http: { type: 'string', default: process.env.SLOTSTREAM_RPC ?? 'http://127.0.0.1:8899' },
    ws: { type: 'string', default: process.env.SLOTSTREAM_WS ?? 'ws://127.0.0.1:8900' },
    token: { type: 'string', default: process.env.SLOTSTREAM_TOKEN ?? '' },
  },
});
const headers = opts.token ? { authorization: `Bearer ${opts.token}` } : undefined;

// web3.js 1.x: the HTTP endpoint, and the WebSocket endpoint its on…Change subscriptions use.
const connection = new Connection(opts.http, { commitment: 'confirmed', wsEndpoint: opts.ws, httpHeaders: headers });
// kit: the same HTTP endpoint (createSolanaRpcSubscriptions(opts.ws) would take the WebSocket one).
const rpc = createSolanaRpcFromTransport(createDefaultRpcTransport({ url: opts.http, headers }));

const slot = await connection.getSlot('finalized');
console.log(`finalized slot ${slot}; version ${JSON.stringify(await connection.getVersion())}`);

// The newest finalized block that holds transactions, as web3.js asks for it (json, full details, rewards).
const first = await connection.getFirstAvailableBlock(); // the oldest block the views hold
const recent = await connection.getBlocks(Math.max(first, slot - 50), slot, 'finalized');
let block;
for (const s of recent.reverse()) {
  block = await connection.getBlock(s, { maxSupportedTransactionVersion: 0, commitment: 'finalized' });
  if (block && block.transactions.length > 0) {
    console.log(
      `block ${s}: ${block.transactions.length} transactions, blockhash ${block.blockhash}, parent ${block.parentSlot}, time ${block.blockTime}`,
    );
    break;
  }
}
if (!block || block.transactions.length === 0) {
  console.log('no finalized block with transactions yet; try again in a few seconds');
  process.exit(0);
}

// One transaction, three ways: web3.js json, web3.js jsonParsed, kit base64.
const sig = block.transactions[0]!.transaction.signatures[0]!;
const tx = await connection.getTransaction(sig, { maxSupportedTransactionVersion: 0, commitment: 'finalized' });
const meta = tx!.meta!;
const paid = meta.preBalances.reduce((s, v, i) => s + v - meta.postBalances[i]!, 0);
console.log(
  `transaction ${sig}: version ${tx!.version}, fee ${meta.fee} (balances moved by ${paid}), ${meta.logMessages?.length ?? 0} log lines, err ${JSON.stringify(meta.err)}`,
);
const parsed = await connection.getParsedTransaction(sig, { maxSupportedTransactionVersion: 0, commitment: 'finalized' });
for (const ix of parsed!.transaction.message.instructions) {
  console.log(
    '  instruction',
    'parsed' in ix ? `${ix.program}: ${JSON.stringify(ix.parsed).slice(0, 120)}` : `${ix.programId.toBase58()} (not parsed)`,
  );
}
const raw = await rpc.getTransaction(signature(sig), { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send();
console.log(`kit: ${Buffer.from(raw!.transaction[0], 'base64').length} wire bytes at slot ${raw!.slot}`);

// The fee payer's balance and its newest signatures.
const payer = tx!.transaction.message.staticAccountKeys[0]!;
console.log(
  `fee payer ${payer.toBase58()}: ${await connection.getBalance(new PublicKey(payer))} lamports (web3.js), ` +
    `${(await rpc.getBalance(address(payer.toBase58())).send()).value} (kit, bigint)`,
);
const history = await connection.getSignaturesForAddress(payer, { limit: 3 });
console.log(`its newest signatures: ${history.map((h) => `${h.signature.slice(0, 12)}… @${h.slot}`).join(', ')}`);
