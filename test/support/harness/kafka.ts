// Helpers for integration tests that talk to the shared broker started by ./global-setup.ts.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import './provided-context.js';

/** Bootstrap list of the run's broker. */
export function testBrokers(): string[] {
  const brokers = inject('kafkaBrokers') ?? process.env.SLOTSTREAM_TEST_KAFKA_BROKERS?.split(',');
  if (!brokers || brokers.length === 0) {
    throw new Error('no test Kafka broker: run integration tests through the vitest `int` project (test/support/harness/global-setup.ts)');
  }
  return brokers;
}

/** A topic prefix no other test (or earlier run) uses, e.g. `t.ingest-resume.lx3k2a.9f1c`.
 * Only characters legal in topic names; no `_`, since Kafka warns when `.` and `_` names could collide. */
export function uniquePrefix(name: string): string {
  const clean =
    name
      .replace(/[^a-zA-Z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'test';
  return `t.${clean}.${Date.now().toString(36)}.${randomBytes(3).toString('hex')}`;
}

export interface WaitForOptions {
  /** A deadline against a hang, not an expected duration (default 2 minutes: beside a running `slotstream all` on two
   * cores, waits took 3-10 times as long as on a quiet machine, issue 32). */
  timeoutMs?: number;
  /** What is awaited, for the timeout message. */
  what: string;
  intervalMs?: number;
}

/** Polls `cond` until it returns a truthy value, and returns that value. Errors thrown by `cond`
 * count as "not yet"; the last one is quoted if the wait times out. Use instead of sleeps. */
export async function waitFor<T>(
  cond: () => T | Promise<T>,
  { timeoutMs = 120_000, what, intervalMs = 50 }: WaitForOptions,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await cond();
      if (v) return v;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? `last error: ${last.message}` : `last value: ${String(last)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${detail})`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
