import { describe, expect, it } from 'vitest';
import { headKinds } from './wire-api.js';

describe('headKinds', () => {
  it("reads for JSON-RPC's own live read what its head cache keeps, and slot statuses always", () => {
    expect(headKinds({ headCacheSlots: 150, headCacheAccounts: true })).toEqual(['slots', 'transactions', 'accounts']);
    expect(headKinds({ headCacheSlots: 150, headCacheAccounts: false })).toEqual(['slots', 'transactions']);
    expect(headKinds({ headCacheSlots: 0, headCacheAccounts: true })).toEqual(['slots']);
  });
});
