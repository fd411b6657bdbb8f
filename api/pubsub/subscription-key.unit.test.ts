// Which subscribe requests are the same subscription (Agave's SubscriptionParams equality): the parsed request with
// its defaults applied, so spellings that parse alike share a key and any difference in what is sent does not.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { parseSubscribe, SUBSCRIBE_METHODS } from './params.js';
import { subscriptionKey } from './subscription-key.js';

const PK = bs58.encode(Buffer.alloc(32, 3));
const PK2 = bs58.encode(Buffer.alloc(32, 4));
const SIG = bs58.encode(Buffer.alloc(64, 5));
const keyOf = (method: string, params?: unknown): string => {
  const kind = SUBSCRIBE_METHODS.get(method)!;
  return subscriptionKey(kind, parseSubscribe(kind, params));
};

describe('subscriptionKey', () => {
  it('the same request, with defaults spelt out or left out, commitment aliases, or memcmp bytes in either encoding, is one key', () => {
    expect(keyOf('accountSubscribe', [PK])).toBe(keyOf('accountSubscribe', [PK, { commitment: 'finalized', encoding: 'binary' }]));
    expect(keyOf('accountSubscribe', [PK, { commitment: 'recent' }])).toBe(keyOf('accountSubscribe', [PK, { commitment: 'processed' }]));
    expect(keyOf('accountSubscribe', [PK, { commitment: 'confirmed', minContextSlot: 5 }])).toBe(
      keyOf('accountSubscribe', [PK, { commitment: 'confirmed' }]),
    );
    const bytes = Buffer.from([1, 2, 3]);
    expect(keyOf('programSubscribe', [PK, { filters: [{ memcmp: { offset: 4, bytes: bs58.encode(bytes) } }] }])).toBe(
      keyOf('programSubscribe', [PK, { filters: [{ memcmp: { offset: 4, bytes: bytes.toString('base64'), encoding: 'base64' } }] }]),
    );
    expect(keyOf('logsSubscribe', ['all'])).toBe(keyOf('logsSubscribe', ['all', {}]));
    expect(keyOf('slotSubscribe')).toBe(keyOf('slotSubscribe', []));
  });

  it('any difference in method, key, commitment, encoding, slice, filters or options is another key', () => {
    const keys = [
      keyOf('accountSubscribe', [PK]),
      keyOf('accountSubscribe', [PK2]),
      keyOf('accountSubscribe', [PK, { commitment: 'confirmed' }]),
      keyOf('accountSubscribe', [PK, { encoding: 'base64' }]),
      keyOf('accountSubscribe', [PK, { encoding: 'base64', dataSlice: { offset: 0, length: 8 } }]),
      keyOf('accountSubscribe', [PK, { snapshot: true }]),
      keyOf('programSubscribe', [PK]),
      keyOf('programSubscribe', [PK, { filters: [{ dataSize: 165 }] }]),
      // Agave keeps withContext and enableReceivedNotification in its params, though they change nothing here.
      keyOf('programSubscribe', [PK, { withContext: true }]),
      keyOf('signatureSubscribe', [SIG]),
      keyOf('signatureSubscribe', [SIG, { enableReceivedNotification: true }]),
      keyOf('logsSubscribe', ['all']),
      keyOf('logsSubscribe', ['allWithVotes']),
      keyOf('logsSubscribe', [{ mentions: [PK] }]),
      keyOf('blockSubscribe', ['all', { commitment: 'confirmed' }]),
      keyOf('blockSubscribe', ['all', { commitment: 'confirmed', transactionDetails: 'signatures' }]),
      keyOf('slotSubscribe'),
      keyOf('rootSubscribe'),
      keyOf('slotsUpdatesSubscribe'),
      keyOf('voteSubscribe'),
      keyOf('transactionSubscribe', [{ accountInclude: [PK] }]),
      keyOf('transactionSubscribe', [{ accountInclude: [PK] }, { commitment: 'confirmed' }]),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
