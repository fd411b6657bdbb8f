// The methods that write to the chain, which a read-only service cannot serve: answered at once with a
// clear -32601 (see errors.ts), whatever the params and however far behind the views are.
import { readOnlyService } from '../../solana-json/errors.js';
import { defineMethod, type AnyMethod } from '../method.js';

const refuse = (name: string): AnyMethod =>
  defineMethod<null>({
    name,
    unavailableMessage: '',
    answersWhileBehind: true,
    parse: () => null,
    run: async () => {
      throw readOnlyService(name);
    },
  });

export const READ_ONLY_REFUSALS: readonly AnyMethod[] = ['sendTransaction', 'simulateTransaction', 'requestAirdrop'].map(refuse);
