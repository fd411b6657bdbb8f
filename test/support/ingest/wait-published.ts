// For the restart tests (test/ingest.int.test.ts, test/rpc-source.int.test.ts): waits until an ingest
// child process has published enough slot records to be killed mid-run, failing fast if it exited.
import type { ChildProcess } from 'node:child_process';
import type { Kafka } from '../../../platform/kafka/index.js';
import { topicNames } from '../../../schemas/topics.js';
import { waitFor } from '../harness/kafka.js';

export async function waitForSlotRecords(
  kafka: Kafka,
  prefix: string,
  child: { proc: ChildProcess; stderr: () => string },
  atLeast: number,
  what: string,
): Promise<void> {
  await waitFor(
    async () => {
      if (child.proc.exitCode !== null) throw new Error(`child exited early (${child.proc.exitCode}): ${child.stderr()}`);
      const ranges = await kafka
        .admin()
        .offsetRanges(topicNames(prefix).slots)
        .catch(() => new Map<number, { high: bigint }>());
      return [...ranges.values()].reduce((n, r) => n + Number(r.high), 0) >= atLeast;
    },
    { what, timeoutMs: 300_000 },
  );
}
