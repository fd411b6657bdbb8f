// --votes with the real rpc source on a real mainnet block (../shared/data/mainnet, read in place): block
// 43200000 holds 208 transactions, 192 of them votes (the data README). Served by the local JSON-RPC test
// server as Agave's getBlock, read through the ingest's own source selection (ingest/run.ts createSource).
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSection } from '../../../cli/config-sections.js';
import { makeConfig } from '../../../cli/config.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { ConfirmedBlock } from '../../../schemas/yellowstone/index.js';
import { MAINNET_BLOCKS, readMainnetBlock } from '../../../test/support/mainnet/data.js';
import { startTestRpcServer, type TestRpcServer } from '../../../test/support/rpc/test-server.js';
import { createSource } from '../../run.js';

const FACT = MAINNET_BLOCKS[1];
const SLOT = Number(FACT.slot);
let server: TestRpcServer;

beforeAll(async () => {
  const block = ConfirmedBlock.decode(readMainnetBlock(FACT.slot));
  server = await startTestRpcServer({
    slots: new Map([[SLOT, { kind: 'block', block }]]),
    slotsPerEpoch: 432_000,
    identities: [Buffer.alloc(32, 1)],
    tip: { confirmed: SLOT, finalized: SLOT },
  });
});

afterAll(async () => {
  await server?.close();
});

async function ingest(votes: 'include' | 'exclude'): Promise<ChainEvent[]> {
  const config = makeConfig('ingest', { source: 'rpc', rpcUrl: server.url, fromSlot: SLOT, toSlot: SLOT, votes });
  const out: ChainEvent[] = [];
  for await (const b of createSource(ingestSection(config), pino({ level: 'silent' })).batches({})) out.push(...b.events);
  return out;
}

const transactions = (events: ChainEvent[]) => events.flatMap((e) => (e.kind === 'transactions' ? [e.event] : []));

describe('--votes on mainnet block 43200000 through --source rpc', () => {
  it('include publishes all 208 transactions, 192 of them votes', async () => {
    const txs = transactions(await ingest('include'));
    expect(txs).toHaveLength(FACT.transactions);
    expect(txs.filter((t) => t.isVote)).toHaveLength(FACT.votes);
  });

  it("exclude publishes the 16 others, in the block's order, and the block meta still counts the chain's votes", async () => {
    const all = await ingest('include');
    const some = await ingest('exclude');
    const kept = transactions(some);
    expect(kept).toHaveLength(FACT.transactions - FACT.votes);
    expect(kept).toEqual(transactions(all).filter((t) => !t.isVote));
    const meta = some.flatMap((e) => (e.kind === 'slots' && e.event.block ? [e.event.block] : []));
    expect(meta.map((b) => b.voteTransactionCount)).toEqual([FACT.votes]);
  });
});
