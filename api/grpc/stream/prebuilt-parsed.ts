// A transaction record's prebuilt SubscribeParsed update (schemas/events.proto `parsed_update` and
// `parsed_summary`, written by the ingest: ingest/publish/parsed-update.ts). SubscribeParsed forwards the
// update's bytes as they are and filters on the summary, so a transaction costs the api what a Subscribe
// update costs (no decode, no proto messages, no encoding: issue 20's 50,000 updates/s to one stream). Read
// from the record's field table (schemas/scan.ts), shared by every stream through the SharedEvent.
import { ParsedSummary } from '../../../schemas/gen/events.js';
import { scanFields, type TransactionScan } from '../../../schemas/scan.js';
import type { SharedEvent } from '../../live/index.js';

/** schemas/events.proto TransactionEvent.parsed_update / parsed_summary. */
const UPDATE_FIELD = 40;
const SUMMARY_FIELD = 41;
/** ParsedSummary.instructions. */
const SUMMARY_INSTRUCTIONS = 3;

export class PrebuiltParsed {
  private decoded: ParsedSummary | undefined;

  constructor(
    /** The complete SubscribeUpdateParsedTransaction; empty when the transaction has nothing to send. */
    readonly update: Buffer,
    /** The transaction failed (the record's `err`). */
    readonly failed: boolean,
    private readonly summaryBytes: Buffer | undefined,
  ) {}

  /** Whether the update carries an instruction (all a default request asks besides `failed`): the summary's
   * top-level fields, scanned, not decoded. */
  get hasInstructions(): boolean {
    if (this.summaryBytes === undefined) return false;
    const f = scanFields(this.summaryBytes);
    for (let i = 0; i < f.length; i += 3) if (f[i] === SUMMARY_INSTRUCTIONS) return true;
    return false;
  }

  /** What the request filters read, decoded on first use (a default request never asks). */
  get summary(): ParsedSummary {
    return (this.decoded ??=
      this.summaryBytes === undefined ? ParsedSummary.fromPartial({ failed: this.failed }) : ParsedSummary.decode(this.summaryBytes));
  }
}

/** The payload of the length-delimited field whose value (length varint, then bytes) spans [start, end). */
function payload(b: Buffer, start: number, end: number): Buffer {
  let p = start;
  while (p < end && (b[p]! & 0x80) !== 0) p++;
  return b.subarray(p + 1, end);
}

/** The record's prebuilt update, or undefined when the ingest did not build one (an older record, or a join
 * the ingest could not make from its batch: the api builds the update itself). */
export function prebuiltParsed(scan: TransactionScan): PrebuiltParsed | undefined {
  const f = scan.fields;
  let update: Buffer | undefined;
  let summary: Buffer | undefined;
  // The ingest appends both after every other field: look from the end.
  for (let i = f.length - 3; i >= 0; i -= 3) {
    const field = f[i]!;
    if (field === UPDATE_FIELD) update = payload(scan.bytes, f[i + 1]!, f[i + 2]!);
    else if (field === SUMMARY_FIELD) summary = payload(scan.bytes, f[i + 1]!, f[i + 2]!);
    else if (field < UPDATE_FIELD) break;
  }
  return update === undefined ? undefined : new PrebuiltParsed(update, scan.failed, summary);
}

const KEY = 'parsed-prebuilt';

/** The shared prebuilt update of a transaction update (null: none), read by the first stream that asks. */
export function prebuiltParsedOf(u: SharedEvent, scan: TransactionScan): PrebuiltParsed | null {
  return u.encoded(KEY, () => prebuiltParsed(scan) ?? null);
}
