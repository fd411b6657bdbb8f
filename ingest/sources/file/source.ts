// `--source file <path|->`: reads JSON lines (./README.md), regroups them into slot batches and
// yields them. A bad line is reported with its number and reason and skipped (or, with `strict`,
// ends the source with an error); the counts are available at the end.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ChainSource, SlotBatch } from '../../source.js';
import { SlotBatcher } from './batcher.js';
import { parseLine } from './format.js';

export interface BadLine {
  /** 1-based line number in the input. */
  line: number;
  reason: string;
}

export interface FileSourceStats {
  lines: number;
  events: number;
  badLines: number;
  /** Batches left out because Kafka already holds them (slot <= afterSlot). */
  batchesSkipped: number;
}

export interface FileSourceOptions {
  strict?: boolean;
  onBadLine?: (bad: BadLine) => void;
  /** For tests and `-`: read from this stream instead of opening the path. */
  input?: Readable;
}

export class BadLineError extends Error {
  override name = 'BadLineError';
  constructor(
    readonly input: string,
    readonly bad: BadLine,
  ) {
    super(`${input} line ${bad.line}: ${bad.reason}`);
  }
}

export interface FileSource extends ChainSource {
  readonly stats: Readonly<FileSourceStats>;
}

export function createFileSource(path: string, opts: FileSourceOptions = {}): FileSource {
  if (path === '') throw new Error('file source: no input (--source-path <file>, or - for standard input)');
  const name = path === '-' ? 'standard input' : path;
  const stats: FileSourceStats = { lines: 0, events: 0, badLines: 0, batchesSkipped: 0 };
  let used = false;

  async function* batches({ afterSlot, signal }: { afterSlot?: bigint; signal?: AbortSignal }): AsyncIterable<SlotBatch> {
    // The input is a stream: it can be read once.
    if (used) throw new Error(`file source ${name}: batches() can be called only once`);
    used = true;
    let stream: Readable;
    if (opts.input) stream = opts.input;
    else if (path === '-') stream = process.stdin;
    else {
      const file = createReadStream(path);
      // Open first, so a missing file fails with its name before any line is read.
      await new Promise<void>((resolve, reject) => {
        file.once('open', () => resolve());
        file.once('error', (err) => reject(new Error(`file source: cannot read ${name}: ${err.message}`)));
      });
      stream = file;
    }
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    const batcher = new SlotBatcher();
    const keep = (b: SlotBatch | undefined): b is SlotBatch => {
      if (b === undefined) return false;
      if (afterSlot !== undefined && b.slot <= afterSlot) {
        stats.batchesSkipped++;
        return false;
      }
      return true;
    };
    try {
      for await (const text of lines) {
        if (signal?.aborted) return;
        stats.lines++;
        if (text.trim() === '') continue;
        const parsed = parseLine(text);
        if (!parsed.ok) {
          stats.badLines++;
          const bad = { line: stats.lines, reason: parsed.reason };
          opts.onBadLine?.(bad);
          if (opts.strict) throw new BadLineError(name, bad);
          continue;
        }
        stats.events++;
        const done = batcher.push(parsed.event);
        if (keep(done)) yield done;
      }
      const last = batcher.flush();
      if (keep(last)) yield last;
    } finally {
      lines.close();
      if (stream !== process.stdin) stream.destroy();
    }
  }

  return { batches, notes: [`file source: ${name}${opts.strict ? ' (strict: stops at the first bad line)' : ''}`], stats };
}
