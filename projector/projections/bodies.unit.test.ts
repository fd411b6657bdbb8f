import { describe, expect, it } from 'vitest';
import { BlockMeta, encodeRecord, RewardType, SlotStatus, TransactionEvent } from '../../schemas/codec.js';
import { b58, keyOf, slotStatus } from '../../test/support/projector/events.js';
import { tokenTx } from '../../test/support/jsonrpc/tx-chain.js';
import { blockDetailRows, transactionBodyRows } from './bodies.js';
import { project } from './index.js';

describe('transactionBodyRows', () => {
  it('given a transaction with full meta, when projected, then the body decodes back to the same event and the index names its (slot, position)', () => {
    const e = tokenTx(208, 1);
    const { body, index } = transactionBodyRows(e, 'sig');
    expect(index).toEqual({ signature: 'sig', slot: '208', position: 1 });
    expect(body).toMatchObject({ slot: '208', position: 1, signature: 'sig' });
    expect(TransactionEvent.decode(body.record)).toEqual(e);
  });

  it('given the record value the event came from, then that value is the body, as the event encoded would be', () => {
    const e = tokenTx(208, 1);
    const raw = encodeRecord({ kind: 'transactions', event: e }).value;
    expect(transactionBodyRows(e, 'sig', raw).body.record).toBe(raw);
    expect(transactionBodyRows(e, 'sig', raw).body).toEqual(transactionBodyRows(e, 'sig').body);
  });

  it('given a transaction event, when project() runs, then it adds the body and index rows beside the existing views', () => {
    const e = tokenTx(208, 1);
    const p = project({ kind: 'transactions', event: e });
    if (!p.ok) throw new Error(p.reason);
    const sig = b58('txsig-208-1', 64);
    expect(p.rows.transactions![0]!.signature).toBe(sig);
    expect(p.rows.transaction_index).toEqual([{ signature: sig, slot: '208', position: 1 }]);
    expect(p.rows.transaction_records).toHaveLength(1);
  });

  it('given a transaction without a signature, when project() runs, then it is still rejected (no body row)', () => {
    const e = tokenTx(208, 1);
    e.signatures = [];
    expect(project({ kind: 'transactions', event: e }).ok).toBe(false);
  });
});

describe('blockDetailRows', () => {
  it('given a block record with rewards, partitions and a previous blockhash, when projected, then one details row holds them', () => {
    const e = slotStatus(7, SlotStatus.SLOT_STATUS_PROCESSED, { parent: 6, height: 5 });
    e.block!.previousBlockhash = keyOf('prev');
    e.block!.rewards = [
      {
        pubkey: keyOf('v'),
        lamports: -3n,
        postBalance: 10n,
        rewardType: RewardType.REWARD_TYPE_RENT,
        commission: undefined,
        commissionBps: undefined,
      },
    ];
    e.block!.numPartitions = 4n;
    const [row] = blockDetailRows(e);
    expect(row).toMatchObject({ slot: '7', previous_blockhash: b58('prev'), num_partitions: '4' });
    expect(BlockMeta.decode(Buffer.from(row!.rewards, 'base64')).rewards).toEqual(e.block!.rewards);
  });

  it('given an older block record without a previous blockhash, then it is stored empty; a status without block meta adds no row', () => {
    const e = slotStatus(7, SlotStatus.SLOT_STATUS_PROCESSED, { parent: 6, height: 5 });
    expect(blockDetailRows(e)[0]).toMatchObject({ previous_blockhash: '', num_partitions: null });
    expect(blockDetailRows(slotStatus(7, SlotStatus.SLOT_STATUS_CONFIRMED))).toEqual([]);
    const p = project({ kind: 'slots', event: e });
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.block_details).toHaveLength(1);
  });
});
