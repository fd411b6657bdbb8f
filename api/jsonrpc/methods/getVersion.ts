// getVersion: Agave's RpcVersionInfo. `solana-core` is slotstream's version, the same string every
// context's `apiVersion` carries (as Agave's two agree); `feature-set` is left out: slotstream runs no
// validator features, and a made-up number would tell clients something false.
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';

export const getVersion = defineMethod<null>({
  name: 'getVersion',
  unavailableMessage: 'Version unavailable',
  answersWhileBehind: true,
  parse: parseNoParams('getVersion'),
  run: async (ctx) => ({ 'solana-core': ctx.apiVersion }),
});
