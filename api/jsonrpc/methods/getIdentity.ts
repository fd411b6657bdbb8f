// getIdentity: a validator's identity pubkey. slotstream is no validator and has none of its own: it answers
// the operator's `rpcIdentity` (RPC_IDENTITY), and without one -32601 saying so rather than an invented key.
import { notServed } from '../../solana-json/errors.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';

export const getIdentity = defineMethod<null>({
  name: 'getIdentity',
  unavailableMessage: '',
  answersWhileBehind: true,
  parse: parseNoParams('getIdentity'),
  run: async (ctx) => {
    if (ctx.node.identity === undefined) {
      throw notServed(
        'getIdentity',
        'it is no validator and has no identity; an operator can configure one to answer with rpcIdentity (RPC_IDENTITY)',
      );
    }
    return { identity: ctx.node.identity };
  },
});
