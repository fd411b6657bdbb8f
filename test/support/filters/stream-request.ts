// stream.Stream SubscribeRequests for tests, written with plain objects for the filter maps (as a client's JSON
// would have them) and turned into the generated type, whose map fields are Maps (proto/buf.gen.yaml
// `useMapType`). A name such as `__proto__` needs a Map or a computed key (`{ ['__proto__']: f }`): an object
// literal's `__proto__:` sets its prototype instead.
import {
  SubscribeRequest,
  SubscribeRequestFilterAccounts,
  SubscribeRequestFilterTransactions,
  type DeepPartial,
} from '../../../proto/gen/stream.js';

export type StreamRequestInput = Omit<DeepPartial<SubscribeRequest>, 'transactions' | 'accounts'> & {
  transactions?:
    Record<string, DeepPartial<SubscribeRequestFilterTransactions>> | ReadonlyMap<string, DeepPartial<SubscribeRequestFilterTransactions>>;
  accounts?: Record<string, DeepPartial<SubscribeRequestFilterAccounts>> | ReadonlyMap<string, DeepPartial<SubscribeRequestFilterAccounts>>;
};

const entries = <V>(m: Record<string, V> | ReadonlyMap<string, V> | undefined): [string, V][] =>
  m === undefined ? [] : m instanceof Map ? [...(m as ReadonlyMap<string, V>)] : Object.entries(m);

export function streamRequest(input: StreamRequestInput): SubscribeRequest {
  const { transactions, accounts, ...rest } = input;
  return {
    ...SubscribeRequest.fromPartial(rest),
    transactions: new Map(entries(transactions).map(([name, f]) => [name, SubscribeRequestFilterTransactions.fromPartial(f)])),
    accounts: new Map(entries(accounts).map(([name, f]) => [name, SubscribeRequestFilterAccounts.fromPartial(f)])),
  };
}
