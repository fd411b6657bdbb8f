// The one error catalogue (modelled on kit's SolanaError and fastify's FST_ERR_* codes): every domain
// failure is a SlotstreamError whose `code` is one of the stable codes below and whose `context` carries
// the values the code names. Domain code throws these and knows no transport; each edge maps a code to its
// own status in one table (gRPC statuses in api/grpc/session-stream.ts, process exit codes in
// cli/exit-codes.ts). It lives in schemas/ because contracts (the wire codec) and roles both throw from it,
// and contracts import nothing from the roles. Codes are part of the public contract: add, never rename.

/** Each code with the context its errors carry. */
export interface SlotstreamErrorContext {
  /** A configuration value is missing, malformed or contradicts another (flag, env or rule). */
  SLOTSTREAM_CONFIG_INVALID: Record<string, never>;
  /** A flag or option name that no option has, or that does not apply to the role. */
  SLOTSTREAM_CONFIG_UNKNOWN_OPTION: { readonly option: string };
  /** A subscription request's filters are invalid; `path` names the field in the service's wire names. */
  SLOTSTREAM_FILTER_INVALID: { readonly path: string; readonly reason: string };
  /** A from_slot replay asks for a slot older than the retained history. */
  SLOTSTREAM_REPLAY_OUT_OF_RANGE: { readonly fromSlot: bigint; readonly firstAvailable: bigint };
  /** The process already runs as many from_slot replays as it allows. */
  SLOTSTREAM_TOO_MANY_REPLAYS: Record<string, never>;
  /** A live session's client fell too far behind (its queue or the replay hand-over buffer overflowed). */
  SLOTSTREAM_CLIENT_TOO_SLOW: Record<string, never>;
  /** The live layer cannot serve the session (a replay read failed). */
  SLOTSTREAM_LIVE_UNAVAILABLE: Record<string, never>;
  /** Bytes that do not decode as a Solana wire transaction. */
  SLOTSTREAM_WIRE_DECODE: Record<string, never>;
}

export type SlotstreamErrorCode = keyof SlotstreamErrorContext;

/** Every code, for tests and docs that enumerate the catalogue. */
export const SLOTSTREAM_ERROR_CODES: readonly SlotstreamErrorCode[] = [
  'SLOTSTREAM_CONFIG_INVALID',
  'SLOTSTREAM_CONFIG_UNKNOWN_OPTION',
  'SLOTSTREAM_FILTER_INVALID',
  'SLOTSTREAM_REPLAY_OUT_OF_RANGE',
  'SLOTSTREAM_TOO_MANY_REPLAYS',
  'SLOTSTREAM_CLIENT_TOO_SLOW',
  'SLOTSTREAM_LIVE_UNAVAILABLE',
  'SLOTSTREAM_WIRE_DECODE',
];

export class SlotstreamError<C extends SlotstreamErrorCode = SlotstreamErrorCode> extends Error {
  override name = 'SlotstreamError';
  constructor(
    readonly code: C,
    message: string,
    readonly context: SlotstreamErrorContext[C],
  ) {
    super(message);
  }
}

/** True when `err` is a catalogue error (of `code`, when given). */
export function isSlotstreamError<C extends SlotstreamErrorCode>(err: unknown, code?: C): err is SlotstreamError<C> {
  return err instanceof SlotstreamError && (code === undefined || err.code === code);
}
