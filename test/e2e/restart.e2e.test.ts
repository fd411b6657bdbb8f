// `npm start` twice against one data folder (issue 18, item 7): the embedded ClickHouse views in --data-dir
// survive, the local broker's topics do not (it keeps its data only with --keep-kafka-data), and the
// simulator starts again from genesis. The second run must serve the new chain at once, never the first
// run's heads or a mix of both chains. Also (item 6): the simulated chain's token accounts are owned by the
// real SPL Token program, so getTokenAccountsByOwner finds them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { TOKEN_ACCOUNT_LEN, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { startAll, type AllProcess } from '../support/cli/all-process.js';
import { waitFor } from '../support/harness/kafka.js';
import { withinLagLimit } from '../support/cli/within-lag-limit.js';

const dataDir = mkdtempSync(join(tmpdir(), 'slotstream-restart-'));
const running: AllProcess[] = [];
afterAll(async () => {
  for (const p of running) await p.stop(10_000);
  rmSync(dataDir, { recursive: true, force: true });
});

const slotOf = async (p: AllProcess): Promise<number | undefined> => {
  const r = await p.rpc('getSlot', [{ commitment: 'processed' }]);
  return typeof r.result === 'number' ? r.result : undefined;
};

it(
  'a second run against the same data folder answers the new chain’s tip once its views start afresh, never the old one',
  { timeout: 900_000 },
  async () => {
    // A bounded first chain (200 slots of 50 ms, 20 tps): once it ends, the views catch up with it, whatever the
    // machine's load. An endless one kept them more than the api's lag limit behind on a busy machine (-32007 for
    // the whole 300 s wait below); a bounded source that finishes ends only the ingest, the rest keeps serving.
    // 150 slots leave the second chain (below) far below the old tip for over two minutes. 20 tps (8 transactions a
    // slot): what the test needs is slots, not load.
    // One process (--stream-processes 0): what this checks is the views and JSON-RPC, which the engine serves.
    const first = await startAll(dataDir, ['--slot-ms', '50', '--tps', '20', '--max-slots', '200', '--stream-processes', '0']);
    running.push(first);
    const oldTip = await waitFor(
      async () => {
        const s = await slotOf(first);
        return s !== undefined && s >= 150 ? s : undefined;
      },
      { timeoutMs: 400_000, intervalMs: 200, what: 'the first run to pass slot 150' },
    );

    // Item 6: the real token program owns the simulated chain's token accounts, and jsonParsed reads them. The
    // views may trail the chain by more than the api's lag limit until it ends (-32007): asked again then.
    const answered = (method: string, params: unknown[]) => withinLagLimit((m, ps) => first.rpc(m, ps), method, params);
    const accounts = (
      await answered('getProgramAccounts', [
        TOKEN_PROGRAM,
        { encoding: 'base64', filters: [{ dataSize: TOKEN_ACCOUNT_LEN }], commitment: 'processed' },
      ])
    ).result as { pubkey: string; account: { data: [string, string] } }[];
    expect(accounts.length).toBeGreaterThan(0);
    const owner = (await answered('getAccountInfo', [accounts[0]!.pubkey, { encoding: 'jsonParsed', commitment: 'processed' }])).result as {
      value: { data: { program: string; parsed: { info: { owner: string; mint: string } } } };
    };
    expect(owner.value.data.program).toBe('spl-token');
    const byOwner = (
      await answered('getTokenAccountsByOwner', [
        owner.value.data.parsed.info.owner,
        { programId: TOKEN_PROGRAM },
        { encoding: 'jsonParsed', commitment: 'processed' },
      ])
    ).result as { value: { pubkey: string }[] };
    expect(byOwner.value.map((a) => a.pubkey)).toContain(accounts[0]!.pubkey);

    expect(await first.stop()).toBe(0);

    // The second chain is paced at 1 s a slot: the simulator never runs ahead of its pace (slot n no earlier than n
    // slot times after its start), so for oldTip slot times every answer at or above the old tip can only be the old
    // chain's, whatever the machine's load. Every answer is kept and checked, not only the one the wait ends on, and
    // the wait is a generous deadline on that condition (on a busy machine the views' fresh start took over 15 s).
    const SECOND_SLOT_MS = 1_000;
    const second = await startAll(dataDir, ['--slot-ms', String(SECOND_SLOT_MS), '--tps', '100', '--stream-processes', '0']);
    running.push(second);
    const answers: number[] = [];
    const slotSeen = async (): Promise<number | undefined> => {
      const s = await slotOf(second);
      if (s !== undefined) answers.push(s);
      return s;
    };
    const newTip = await waitFor(
      async () => {
        const s = await slotSeen();
        return s !== undefined && s > 0 && s < oldTip ? s : undefined;
      },
      {
        timeoutMs: (oldTip * SECOND_SLOT_MS * 3) / 4,
        intervalMs: 100,
        what: `getSlot to answer the new chain's tip (the old run ended at ${oldTip})`,
      },
    );
    expect(answers.filter((s) => s >= oldTip)).toEqual([]);
    // It follows the new chain: it moves, and nothing of the old chain above it is served.
    await waitFor(async () => ((await slotOf(second)) ?? 0) > newTip, { timeoutMs: 300_000, what: 'getSlot to move with the new chain' });
    const old = await second.rpc('getBlock', [
      oldTip - 1,
      { commitment: 'confirmed', maxSupportedTransactionVersion: 0, transactionDetails: 'signatures' },
    ]);
    expect(old.error, `getBlock(${oldTip - 1}) of the old chain answered ${JSON.stringify(old.result)?.slice(0, 200)}`).toBeDefined();
    expect(second.output()).toMatch(/the views were built from other Kafka topics: starting them afresh/);
    expect(await second.stop()).toBe(0);
  },
);
