// The node version JSON-RPC answers (issue 32, item 6): getVersion's `solana-core` and `feature-set`, and every
// context's `apiVersion` (Agave's RpcResponseContext carries its own solana-core version, so the two agree). Tools read
// them as the node's version (the Solana CLI's compatibility checks, dashboards): they are the upstream's, as the
// ingest heard it from the node it reads (events.proto SlotEvent.upstream on end markers, read by the api's live
// tail), else DEFAULT_SOLANA_CORE, a current Agave release, with no feature-set (an invented one would be a false
// statement about features). slotstream's own version goes under its own key, `slotstream`.
import { readFileSync } from 'node:fs';
import type { UpstreamVersion } from '../../schemas/codec.js';

/**
 * What a chain without a known upstream (the simulator, the file source, an upstream that does not say) answers:
 * Agave v4.2.0, the stable release for mainnet-beta of 2026-08 (github.com/anza-xyz/agave/releases/tag/v4.2.0).
 * Moves with the Agave release slotstream's behaviour follows (e.g. -32020 for cursors, Agave 4.0).
 */
export const DEFAULT_SOLANA_CORE = '4.2.0';

/** This package's version (package.json). */
export const SLOTSTREAM_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface NodeVersion {
  readonly solanaCore: string;
  /** Only what the upstream said. */
  readonly featureSet?: number | undefined;
}

export const nodeVersionOf = (upstream: UpstreamVersion | undefined): NodeVersion =>
  upstream === undefined ? { solanaCore: DEFAULT_SOLANA_CORE } : { solanaCore: upstream.solanaCore, featureSet: upstream.featureSet };

/** getVersion's result: Agave's RpcVersionInfo (`feature-set` left out when unknown, as Agave's serde skips a None) + slotstream's. */
export function versionInfo(v: NodeVersion): Record<string, unknown> {
  return {
    'solana-core': v.solanaCore,
    ...(v.featureSet === undefined ? {} : { 'feature-set': v.featureSet }),
    slotstream: SLOTSTREAM_VERSION,
  };
}
