// The process edge's one mapping from catalogue codes (schemas/errors.ts) to exit codes. A code not listed
// is no user mistake: the CLI reports it as a failure (exit 1) with its stack.
import { isSlotstreamError, type SlotstreamErrorCode } from '../schemas/errors.js';

/** 2: the command line or config is wrong (as for an unknown role or flag); the message alone is printed. */
export const EXIT_CODE: Partial<Record<SlotstreamErrorCode, number>> = {
  SLOTSTREAM_CONFIG_INVALID: 2,
  SLOTSTREAM_CONFIG_UNKNOWN_OPTION: 2,
};

/** The exit code of a catalogue error the CLI reports by its message alone; undefined for anything else. */
export function exitCodeOf(err: unknown): number | undefined {
  return isSlotstreamError(err) ? EXIT_CODE[err.code] : undefined;
}
