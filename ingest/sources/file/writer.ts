// `--out <path|->`: writes a source's batches as JSON lines (./README.md) instead of publishing,
// so fixtures for the file source are one command away. Honours stream backpressure, so a slow
// disk or pipe paces the source rather than filling memory.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { SlotBatch } from '../../source.js';
import { eventToLine } from './format.js';

export interface JsonlWriter {
  write(batch: SlotBatch): Promise<void>;
  /** Flushes and closes (standard output is flushed but left open). */
  close(): Promise<void>;
  readonly lines: number;
}

export function createJsonlWriter(path: string, opts: { output?: Writable } = {}): JsonlWriter {
  if (path === '') throw new Error('--out: no path (a file, or - for standard output)');
  const toStdout = path === '-' && !opts.output;
  const out: Writable = opts.output ?? (path === '-' ? process.stdout : createWriteStream(path));
  let failed: Error | undefined;
  out.on('error', (err) => {
    failed = new Error(`--out ${path}: ${err.message}`);
  });
  let lines = 0;
  return {
    get lines() {
      return lines;
    },
    async write(batch) {
      if (failed) throw failed;
      const text = batch.events.map((e) => eventToLine(e) + '\n').join('');
      lines += batch.events.length;
      // once() also rejects when the stream emits 'error' while we wait.
      if (!out.write(text)) await once(out, 'drain');
      if (failed) throw failed;
    },
    async close() {
      if (failed) throw failed;
      if (toStdout || opts.output === process.stdout) {
        await new Promise<void>((resolve) => out.write('', () => resolve()));
        return;
      }
      out.end();
      await once(out, 'finish');
      if (failed) throw failed;
    },
  };
}
