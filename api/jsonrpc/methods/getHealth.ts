// getHealth: "ok", or Agave's -32005 with `numSlotsBehind` (null when it cannot be measured). Answers while
// behind (that is its point), from the same rule as /health and the -32007 of the other methods.
import { nodeUnhealthy } from '../../solana-json/errors.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';

export const getHealth = defineMethod<null>({
  name: 'getHealth',
  unavailableMessage: 'Node is unhealthy',
  answersWhileBehind: true,
  parse: parseNoParams('getHealth'),
  run: async (ctx) => {
    const h = await ctx.health();
    if (h.kind === 'ok') return 'ok';
    throw nodeUnhealthy(h.kind === 'behind' ? h.slots : undefined);
  },
});
