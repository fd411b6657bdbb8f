// What stream.Stream's and geyser.Geyser's transaction filters share, read the same way from both requests: the
// name, the three account lists and the vote and failed conditions. Each service passes its own key-list reader
// (its limits and its error wording); the signature and the service's own fields stay with its adapter.
import type { TransactionFilterSpec } from './model.js';

/** The fields both services' transaction filters carry, as ts-proto gives them. */
export interface TransactionFilterFields {
  readonly accountInclude?: readonly string[];
  readonly accountExclude?: readonly string[];
  readonly accountRequired?: readonly string[];
  readonly vote?: boolean | undefined;
  readonly failed?: boolean | undefined;
}

/** The shared part of a TransactionFilterSpec; `keys` reads one account list at its request path. */
export function transactionFilterBase(
  path: string,
  name: string,
  f: TransactionFilterFields,
  keys: (path: string, list: readonly string[] | undefined) => Uint8Array[],
): Pick<TransactionFilterSpec, 'name' | 'accountInclude' | 'accountExclude' | 'accountRequired' | 'vote' | 'failed'> {
  return {
    name,
    accountInclude: keys(`${path}.account_include`, f.accountInclude),
    accountExclude: keys(`${path}.account_exclude`, f.accountExclude),
    accountRequired: keys(`${path}.account_required`, f.accountRequired),
    vote: f.vote,
    failed: f.failed,
  };
}
