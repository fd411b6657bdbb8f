// Solana PubSub's adapter: a parsed subscribe request (api/pubsub/params.ts has already applied Agave's
// parameter rules and decoded every key) -> the transport-neutral model. One subscription is one session
// with a single filter named FILTER_NAME, so the names in an update carry nothing a PubSub client sees.
// Pure and total: nothing here is a client error.
import { Commitment, EMPTY_SUBSCRIPTION, type AccountDataFilter, type SubscriptionSpec } from './model.js';

export const PUBSUB_FILTER_NAME = 'pubsub';

/** programSubscribe's `filters` entries (Agave's RpcFilterType without the token-account one it rejects). */
export type PubSubProgramFilter =
  { readonly kind: 'dataSize'; readonly size: bigint } | { readonly kind: 'memcmp'; readonly offset: bigint; readonly bytes: Uint8Array };

export type PubSubRequest =
  | { readonly kind: 'account'; readonly pubkey: Uint8Array; readonly commitment: Commitment }
  | {
      readonly kind: 'program';
      readonly program: Uint8Array;
      readonly filters: readonly PubSubProgramFilter[];
      readonly commitment: Commitment;
    }
  /** `all` (votes excluded), `allWithVotes`, or `{mentions: [address]}` (votes included, as Agave). */
  | { readonly kind: 'logs'; readonly mentions: Uint8Array | undefined; readonly votes: boolean; readonly commitment: Commitment }
  | { readonly kind: 'signature'; readonly signature: Uint8Array; readonly commitment: Commitment }
  /** A slot's processed status (slotSubscribe). */
  | { readonly kind: 'slot' }
  /** A slot's finalized status (rootSubscribe). */
  | { readonly kind: 'root' }
  /** Every status a slot goes through, progress statuses and dead included (slotsUpdatesSubscribe), and each
   * processed block (its `frozen` update counts the block's transactions and entries). */
  | { readonly kind: 'slotsUpdates' }
  /** Whole blocks at the commitment (blockSubscribe); `mentions` is applied to the block's transactions by the transport. */
  | { readonly kind: 'block'; readonly mentions: Uint8Array | undefined; readonly commitment: Commitment }
  /** Vote transactions, as they are read (voteSubscribe: Agave sends votes before they are confirmed). */
  | { readonly kind: 'vote' }
  /** Helius's transactionSubscribe: its filter is Yellowstone's transaction filter. */
  | {
      readonly kind: 'transaction';
      readonly vote: boolean | undefined;
      readonly failed: boolean | undefined;
      readonly signature: Uint8Array | undefined;
      readonly accountInclude: readonly Uint8Array[];
      readonly accountExclude: readonly Uint8Array[];
      readonly accountRequired: readonly Uint8Array[];
      readonly commitment: Commitment;
    };

const dataFilter = (f: PubSubProgramFilter): AccountDataFilter =>
  f.kind === 'dataSize' ? { kind: 'datasize', size: f.size } : { kind: 'memcmp', offset: f.offset, bytes: f.bytes };

export function specFromPubSub(r: PubSubRequest): SubscriptionSpec {
  const name = PUBSUB_FILTER_NAME;
  switch (r.kind) {
    case 'logs':
    case 'signature':
    case 'vote':
    case 'transaction':
      return transactionsSpec(r);
    case 'account':
      return { ...EMPTY_SUBSCRIPTION, commitment: r.commitment, accounts: [{ name, account: [r.pubkey], owner: [], filters: [] }] };
    case 'program':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: r.commitment,
        accounts: [{ name, account: [], owner: [r.program], filters: r.filters.map(dataFilter) }],
      };
    case 'slot':
      // Slot status updates are never held by the gate, so the level only selects which status is sent.
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: Commitment.processed,
        slots: [{ name, filterByCommitment: true, interslotUpdates: false }],
      };
    case 'root':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: Commitment.finalized,
        slots: [{ name, filterByCommitment: true, interslotUpdates: false }],
      };
    case 'slotsUpdates':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: Commitment.processed,
        slots: [{ name, filterByCommitment: false, interslotUpdates: true }],
        blocks: [{ name, accountInclude: [], includeTransactions: true, includeAccounts: false, includeEntries: true }],
      };
    case 'block':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: r.commitment,
        blocks: [{ name, accountInclude: [], includeTransactions: true, includeAccounts: false, includeEntries: false }],
      };
  }
}

/** The requests a transaction filter answers. */
function transactionsSpec(r: Extract<PubSubRequest, { kind: 'logs' | 'signature' | 'vote' | 'transaction' }>): SubscriptionSpec {
  const name = PUBSUB_FILTER_NAME;
  switch (r.kind) {
    case 'logs':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: r.commitment,
        transactions: [
          {
            name,
            accountInclude: r.mentions === undefined ? [] : [r.mentions],
            accountExclude: [],
            accountRequired: [],
            // Agave's `all` leaves votes out; `allWithVotes` and `mentions` take every transaction.
            vote: r.mentions === undefined && !r.votes ? false : undefined,
          },
        ],
      };
    case 'signature':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: r.commitment,
        transactions: [{ name, accountInclude: [], accountExclude: [], accountRequired: [], signature: r.signature }],
      };
    case 'vote':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: Commitment.processed,
        transactions: [{ name, accountInclude: [], accountExclude: [], accountRequired: [], vote: true }],
      };
    case 'transaction':
      return {
        ...EMPTY_SUBSCRIPTION,
        commitment: r.commitment,
        transactions: [
          {
            name,
            accountInclude: r.accountInclude,
            accountExclude: r.accountExclude,
            accountRequired: r.accountRequired,
            vote: r.vote,
            failed: r.failed,
            signature: r.signature,
          },
        ],
      };
  }
}
