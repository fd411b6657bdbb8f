// getHighestSnapshotSlot: slotstream makes and serves no snapshots, so it answers what Agave answers on a
// node without snapshot archives: -32008 `No snapshot`.
import { noSnapshot } from '../../solana-json/errors.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';

export const getHighestSnapshotSlot = defineMethod<null>({
  name: 'getHighestSnapshotSlot',
  unavailableMessage: '',
  answersWhileBehind: true,
  parse: parseNoParams('getHighestSnapshotSlot'),
  run: async () => {
    throw noSnapshot();
  },
});
