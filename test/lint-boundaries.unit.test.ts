// The import boundaries of ../shared/ARCHITECTURE.md are lint rules (eslint.config.js): each kind of forbidden
// import fails lint, and the allowed form of the same import passes, so a rule that stops matching shows here.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

/** The boundary messages lint gives for `code` as if it were the file at `filePath` (need not exist). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// ESLint's first lint loads the typescript parser and every config (seconds on a loaded machine).
describe('lint import boundaries', { timeout: 60_000 }, () => {
  it.each([
    ['a Kafka library outside platform/kafka/', 'api/live/x.ts', "import { KafkaJS } from '@confluentinc/kafka-javascript';", /platform\/kafka/],
    ['a test helper from product code', 'api/live/x.ts', "import { waitFor } from '../../test/support/harness/kafka.js';", /never imports tests/],
    ['a role from a contract (schemas/)', 'schemas/x.ts', "import { LiveLayer } from '../api/live/index.js';", /Contracts are leaves/],
    ['a role from a contract (proto/)', 'proto/x.ts', "import { config } from '../platform/config.js';", /Contracts are leaves/],
    ['a sibling transport from JSON-RPC', 'api/jsonrpc/x.ts', "import { PubSubServer } from '../pubsub/server.js';", /sibling transport/],
    ['JSON-RPC from PubSub', 'api/pubsub/x.ts', "import { getSignatureStatuses } from '../jsonrpc/methods/getSignatureStatuses.js';", /sibling transport/],
    ['gRPC from PubSub', 'api/pubsub/x.ts', "import { startGrpc } from '../grpc/server.js';", /sibling transport/],
    ['a transport from the Agave JSON vocabulary', 'api/solana-json/x.ts', "import { METHODS } from '../jsonrpc/methods/index.js';", /imports none/],
    ['the views from the Agave JSON vocabulary', 'api/solana-json/x.ts', "import { queryRows } from '../views/query.js';", /builds on it/],
    ['a transport from the views', 'api/views/x.ts', "import { upgradeToken } from '../pubsub/auth.js';", /imports none/],
  ])('fails on %s', async (_kind, filePath, code, message) => {
    const errors = await boundaryErrors(filePath, `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each([
    ['the Kafka library inside platform/kafka/', 'platform/kafka/x.ts', "import { KafkaJS } from '@confluentinc/kafka-javascript';"],
    ['a test helper from a test', 'api/live/x.int.test.ts', "import { waitFor } from '../../test/support/harness/kafka.js';"],
    ['a contract from a role', 'api/live/x.ts', "import { TOPICS } from '../../schemas/topics.js';"],
    ['the neutral filters from a transport', 'api/jsonrpc/x.ts', "import { compile } from '../filters/index.js';"],
    ['the Agave JSON vocabulary from PubSub', 'api/pubsub/x.ts', "import { parseBody } from '../solana-json/envelope.js';"],
    ['the views from PubSub', 'api/pubsub/x.ts', "import { readSignatureStatuses } from '../views/signature-statuses.js';"],
    ['a contract from the Agave JSON vocabulary', 'api/solana-json/x.ts', "import { decodeBase58 } from '../../schemas/decode-input.js';"],
    ['the Agave JSON vocabulary from the views', 'api/views/x.ts', "import { RpcError } from '../solana-json/errors.js';"],
  ])('passes %s', async (_kind, filePath, code) => {
    const errors = await boundaryErrors(filePath, `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`);
    expect(errors).toEqual([]);
  });
});
