// getVersion: Agave's RpcVersionInfo, the upstream node's version and feature set as the ingest heard them (a
// documented current Agave release when no upstream said), plus slotstream's own version under `slotstream`
// (../node-version.ts). Every context's `apiVersion` is the same `solana-core`, as in Agave.
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';
import { versionInfo } from '../node-version.js';

export const getVersion = defineMethod<null>({
  name: 'getVersion',
  unavailableMessage: 'Version unavailable',
  answersWhileBehind: true,
  parse: parseNoParams('getVersion'),
  run: async (ctx) => versionInfo(ctx.version),
});
