// For params-parser unit tests: the RpcError a call throws.
import { RpcError } from '../../../api/solana-json/errors.js';

/** The RpcError `f` throws; any other error is rethrown, and no error at all fails the test. */
export const rpcErrorOf = (f: () => unknown): RpcError => {
  try {
    f();
  } catch (e) {
    if (e instanceof RpcError) return e;
    throw e;
  }
  throw new Error('did not throw');
};
