// getGenesisHash: the hash of the chain's genesis config. The event model does not carry it, so it is the
// operator's `rpcGenesisHash` (RPC_GENESIS_HASH) when given, else the blockhash of slot 0 when the views hold
// that block (the simulator's chain, or a source that replayed from genesis), else -32601 saying why.
import { notServed } from '../../solana-json/errors.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';

const GENESIS_SQL = `SELECT blockhash FROM {db:Identifier}.blocks WHERE slot = 0 LIMIT 1`;

export const getGenesisHash = defineMethod<null>({
  name: 'getGenesisHash',
  unavailableMessage: 'Block information unavailable',
  answersWhileBehind: true,
  parse: parseNoParams('getGenesisHash'),
  run: async (ctx) => {
    if (ctx.node.genesisHash !== undefined) return ctx.node.genesisHash;
    const [row] = await queryRows<{ blockhash: string }>(ctx.ch, GENESIS_SQL, { db: ctx.db });
    if (row === undefined) {
      throw notServed(
        'getGenesisHash',
        'its views do not hold slot 0 and no genesis hash is configured; an operator can set it with rpcGenesisHash (RPC_GENESIS_HASH)',
      );
    }
    return row.blockhash;
  },
});
