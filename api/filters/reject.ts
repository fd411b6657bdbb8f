// How service adapters reject a request: throw Reject(path, reason) anywhere inside the conversion, and
// catch it once at the adapter's entry point with asFilterError. The path names the field in the
// service's own wire names (`transactions["bots"].account_include[3]`), so a client can find it.
import { describeValue } from '../../platform/describe-value.js';
import { SlotstreamError } from '../../schemas/errors.js';
import type { FilterError } from './types.js';

/** Thrown inside adapters only (catalogue code SLOTSTREAM_FILTER_INVALID); their entry point turns it into a FilterError. */
export class Reject extends SlotstreamError<'SLOTSTREAM_FILTER_INVALID'> {
  override name = 'Reject';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super('SLOTSTREAM_FILTER_INVALID', `${path}: ${reason}`, { path, reason });
  }
}

/** The coded error for a Reject; undefined for anything else (a bug, which the caller rethrows). */
export function asFilterError(err: unknown): FilterError | undefined {
  if (!(err instanceof Reject)) return undefined;
  return Object.freeze({ code: 'INVALID_FILTER', path: err.path, message: err.message });
}

/** Client text quoted for an error message, cut so a huge value cannot blow up the status message. */
export function quote(text: string, max = 64): string {
  return describeValue(text, max);
}
