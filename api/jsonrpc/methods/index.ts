// The seven methods, by name.
import type { AnyMethod } from '../method.js';
import { getBlockHeight } from './getBlockHeight.js';
import { getBlocks } from './getBlocks.js';
import { getBlocksWithLimit } from './getBlocksWithLimit.js';
import { getLeaderSchedule } from './getLeaderSchedule.js';
import { getProgramAccounts } from './getProgramAccounts.js';
import { getRecentPerformanceSamples } from './getRecentPerformanceSamples.js';
import { getSignaturesForAddress } from './getSignaturesForAddress.js';

export const METHODS: ReadonlyMap<string, AnyMethod> = new Map(
  [
    getProgramAccounts,
    getSignaturesForAddress,
    getBlocksWithLimit,
    getBlocks,
    getRecentPerformanceSamples,
    getBlockHeight,
    getLeaderSchedule,
  ].map((m) => [m.name, m]),
);
