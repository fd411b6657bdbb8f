// Which topics a replay reads for a subscription.
import { describe, expect, it } from 'vitest';
import { compileSubscription, EMPTY_SUBSCRIPTION } from '../filters/index.js';
import { readKinds } from './read-kinds.js';

const sub = (spec: Partial<typeof EMPTY_SUBSCRIPTION>) => compileSubscription({ ...EMPTY_SUBSCRIPTION, ...spec });

describe('readKinds', () => {
  it('the slots topic always, each data topic when a filter takes its records', () => {
    expect(readKinds(sub({}))).toEqual(['slots']);
    expect(readKinds(sub({ parsed: [{ name: 'p' }] }))).toEqual(['slots', 'parsed']);
    expect(readKinds(sub({ entry: [{ name: 'e' }], slots: [{ name: 's', filterByCommitment: false, interslotUpdates: false }] }))).toEqual([
      'slots',
      'entries',
    ]);
    expect(
      readKinds(
        sub({ blocks: [{ name: 'b', accountInclude: [], includeTransactions: true, includeAccounts: true, includeEntries: true }] }),
      ),
    ).toEqual(['slots', 'transactions', 'accounts', 'entries']);
  });
});
