// --source rpc from the role's config: options, logs and metrics wired to the source.
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import type { ChainSource } from '../source.js';
import { rpcSourceMetrics } from './metrics.js';
import { createRpcSource } from './source.js';

export { createRpcSource, type RpcSourceOptions } from './source.js';

export function createRpcSourceFromConfig(config: Config, log: Logger): ChainSource {
  const m = rpcSourceMetrics();
  return createRpcSource({
    url: config.rpcUrl,
    fromSlot: config.fromSlot >= 0 ? BigInt(config.fromSlot) : undefined,
    toSlot: config.toSlot >= 0 ? BigInt(config.toSlot) : undefined,
    concurrency: config.rpcConcurrency,
    timeoutMs: config.rpcTimeoutMs,
    pollMs: config.rpcPollMs,
    log,
    onSkipped: () => m.skipped.inc(),
    onGap: () => m.gaps.inc(),
    onRetry: () => m.retries.inc(),
    onTip: (tip, last) => {
      if (last !== undefined) m.lagSlots.set(Number(tip > last ? tip - last : 0n));
    },
    onBlock: (_slot, blockTime) => {
      if (blockTime !== undefined) m.lagMs.set(Math.max(0, Date.now() - Number(blockTime) * 1000));
    },
  });
}
