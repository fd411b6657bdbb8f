// The methods that write to the chain, which a read-only service cannot serve: answered at once with a
// clear -32601 (see errors.ts), whatever the params and however far behind the views are.
import { readOnlyService } from '../../solana-json/errors.js';
import { refusedMethod, type AnyMethod } from '../method.js';

export const READ_ONLY_REFUSALS: readonly AnyMethod[] = ['sendTransaction', 'simulateTransaction', 'requestAirdrop'].map((name) =>
  refusedMethod(name, () => readOnlyService(name)),
);
