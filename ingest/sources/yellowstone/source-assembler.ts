// The slot assembler both source loops (subscription-loop.ts for one upstream, merged-loop.ts for several) build
// from the source's options: transactions and entries counted when the filters receive all of them, rejected
// updates dead-lettered (the promise goes on `dead`, which the loop awaits before its next batch goes out), other
// notices logged.
import { SlotAssembler } from './assembler.js';
import { deadLetterOf, notice } from './notices.js';
import type { YellowstoneSourceOptions } from './options.js';
import { receivesEveryTransaction } from './subscription.js';

export function sourceAssembler(o: YellowstoneSourceOptions, dead: () => Promise<void>[]): SlotAssembler {
  return new SlotAssembler({
    countTransactions: receivesEveryTransaction(o.filters),
    countEntries: o.filters.streams.includes('entries'),
    onNotice: (n) => {
      if (n.kind === 'unconvertible' && o.deadLetters) dead().push(o.deadLetters.send(deadLetterOf(n)));
      else notice(n, o.log);
    },
  });
}
