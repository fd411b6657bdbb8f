// The version of the node a chain comes from (events.proto UpstreamVersion), read from what the upstream says
// about itself: Agave's getVersion answer (RpcVersionInfo: `solana-core`, `feature-set`) or Yellowstone's GetVersion
// JSON (`version.solana`: the Solana version the plugin runs in; no feature set). Pure; anything unreadable is
// undefined (the api then answers its documented default), never an invented value.
import type { UpstreamVersion } from './gen/events.js';

const U32_MAX = 2 ** 32 - 1;

const versionText = (v: unknown): string | undefined =>
  typeof v === 'string' && /^\d+\.\d+\.\d+[0-9A-Za-z.+-]*$/.test(v) && v.length <= 64 ? v : undefined;

function featureSet(v: unknown): number | undefined {
  const n = typeof v === 'bigint' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= U32_MAX ? n : undefined;
}

/** An Agave getVersion result. */
export function upstreamFromRpcVersion(result: unknown): UpstreamVersion | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as Record<string, unknown>;
  const solanaCore = versionText(r['solana-core']);
  if (solanaCore === undefined) return undefined;
  const fs = featureSet(r['feature-set']);
  return fs === undefined ? { solanaCore } : { solanaCore, featureSet: fs };
}

/** Yellowstone's GetVersion `version` string (JSON). */
export function upstreamFromYellowstoneVersion(text: string): UpstreamVersion | undefined {
  try {
    const j = JSON.parse(text) as { version?: { solana?: unknown } };
    const solanaCore = versionText(j.version?.solana);
    return solanaCore === undefined ? undefined : { solanaCore };
  } catch {
    return undefined;
  }
}
