// The order test files start in: vitest's own (by group, project, then the cached duration or, on a fresh clone, the
// file size), except that files which mostly wait on the clock start first within their project. Sorted by size, the
// ingest restart (a 40 s paced chain) started last of the integration files and trailed them by 57 s; the standby
// ingest started last of the paired ones. Started first, their waits overlap the files that keep the cores busy.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Paths (from the repository root) started first in their project, in this order. */
export const STARTED_FIRST: readonly string[] = [
  // int: a paced chain killed mid-slot; a Yellowstone source fed at its pace.
  'test/ingest-restart.int.test.ts',
  'test/yellowstone-source.int.test.ts',
  // int-paired, two lanes: the relay then the restart e2e, the standby ingest then `slotstream all` then the soak
  // (the longest two first; the lanes end within seconds of each other).
  'test/relay.int.test.ts',
  'test/ingest-standby.int.test.ts',
  'test/e2e/all.e2e.test.ts',
  'test/e2e/restart.e2e.test.ts',
];

export class WaitersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = STARTED_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? STARTED_FIRST.length : i;
    };
    // The base order keeps each project's files together: reorder within those runs only, stably.
    const runs: TestSpecification[][] = [];
    for (const f of sorted) {
      const run = runs.at(-1);
      if (run && run[0]!.project.name === f.project.name) run.push(f);
      else runs.push([f]);
    }
    return runs.flatMap((run) =>
      run
        .map((f, at) => ({ f, at }))
        .sort((a, b) => rank(a.f) - rank(b.f) || a.at - b.at)
        .map(({ f }) => f),
    );
  }
}
