// The import boundaries of ../shared/ARCHITECTURE.md are lint rules (eslint.config.js): each kind of forbidden
// import fails lint, and the allowed form of the same import passes, so a rule that stops matching shows here.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

/** The boundary messages lint gives for `code` as if it were the file at `filePath` (need not exist). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('boundary/')).map((m) => m.message);
}

// The forbidden Kafka import as the text lint is given: built from its parts so that no file outside
// platform/kafka/ spells the import itself (a grep for the seam then finds only the seam).
const KAFKA_IMPORT = `import { KafkaJS } from '${['@confluentinc', ['kafka', 'javascript'].join('-')].join('/')}';`;

// ESLint's first lint loads the typescript parser and every config (seconds on a loaded machine).
describe('lint import boundaries', () => {
  it.each([
    ['a Kafka library outside platform/kafka/', 'api/live/x.ts', KAFKA_IMPORT, /platform\/kafka/],
    ['a Kafka library from a transport with its own boundary', 'api/jsonrpc/x.ts', KAFKA_IMPORT, /platform\/kafka/],
    ['a Kafka library from a bench', 'bench/x.ts', KAFKA_IMPORT, /platform\/kafka/],
    ['a Kafka library from a test', 'api/live/x.int.test.ts', KAFKA_IMPORT, /platform\/kafka/],
    [
      'a test helper from a gRPC service',
      'api/grpc/stream/x.ts',
      "import { waitFor } from '../../../test/support/harness/kafka.js';",
      /never imports tests/,
    ],
    [
      'a test helper from product code',
      'api/live/x.ts',
      "import { waitFor } from '../../test/support/harness/kafka.js';",
      /never imports tests/,
    ],
    ['a role from a contract (schemas/)', 'schemas/x.ts', "import { LiveLayer } from '../api/live/index.js';", /Contracts are leaves/],
    ['a role from a contract (proto/)', 'proto/x.ts', "import { config } from '../cli/config.js';", /Contracts are leaves/],
    ['a sibling transport from JSON-RPC', 'api/jsonrpc/x.ts', "import { PubSubServer } from '../pubsub/server.js';", /sibling transport/],
    ['PubSub from the gRPC host', 'api/grpc/x.ts', "import { PubSubServer } from '../pubsub/server.js';", /sibling transport/],
    ['PubSub from a gRPC service', 'api/grpc/geyser/x.ts', "import { startPubSub } from '../../pubsub/server.js';", /sibling transport/],
    ['JSON-RPC from a gRPC service', 'api/grpc/stream/x.ts', "import { API_VERSION } from '../../jsonrpc/server.js';", /sibling transport/],
    [
      'geyser.Geyser from stream.Stream',
      'api/grpc/stream/x.ts',
      "import { geyserService } from '../geyser/service.js';",
      /never imports another service/,
    ],
    [
      'stream.Stream from geyser.Geyser',
      'api/grpc/geyser/x.ts',
      "import { streamService } from '../stream/service.js';",
      /never imports another service/,
    ],
    ['a service from the gRPC host', 'api/grpc/x.ts', "import { streamService } from './stream/service.js';", /only through GrpcService/],
    [
      'JSON-RPC from PubSub',
      'api/pubsub/x.ts',
      "import { getSignatureStatuses } from '../jsonrpc/methods/getSignatureStatuses.js';",
      /sibling transport/,
    ],
    ['gRPC from PubSub', 'api/pubsub/x.ts', "import { startGrpc } from '../grpc/server.js';", /sibling transport/],
    [
      'a transport from the Agave JSON vocabulary',
      'api/solana-json/x.ts',
      "import { METHODS } from '../jsonrpc/methods/index.js';",
      /imports none/,
    ],
    ['the views from the Agave JSON vocabulary', 'api/solana-json/x.ts', "import { queryRows } from '../views/query.js';", /builds on it/],
    ['a transport from the views', 'api/views/x.ts', "import { startPubSub } from '../pubsub/server.js';", /imports none/],
    [
      'a transport from the access check',
      'api/access/x.ts',
      "import { metadataKey } from '../grpc/auth.js';",
      /api\/access\/ serves every transport/,
    ],
    [
      'a sibling source from a source',
      'ingest/sources/yellowstone/x.ts',
      "import { RpcClient } from '../rpc/client.js';",
      /never imports another source/,
    ],
    [
      'a sibling source from deeper in a source',
      'ingest/sources/sim/txgen/x.ts',
      "import { createFileSource } from '../../file/source.js';",
      /never imports another source/,
    ],
    [
      'a source from the publishing pipeline',
      'ingest/publish/x.ts',
      "import { createSimSource } from '../sources/sim/index.js';",
      /only through ingest\/source.ts/,
    ],
    [
      'a role from platform/',
      'platform/x.ts',
      "import { SimOptions } from '../ingest/sources/sim/options.js';",
      /platform\/ is generic machinery/,
    ],
    [
      'the api from platform/',
      'platform/kafka/x.ts',
      "import { JsonRpcOptions } from '../../api/jsonrpc/server.js';",
      /never imports a role/,
    ],
    ['the wiring from platform/', 'platform/x.ts', "import { wireApi } from '../cli/wire-api.js';", /never imports a role/],
    [
      'a role from a platform test',
      'platform/x.unit.test.ts',
      "import { ParsedSlot } from '../ingest/publish/parsed-slot.js';",
      /never imports a role/,
    ],
    [
      'the api from the projector',
      'projector/x.ts',
      "import { queryRows } from '../api/views/query.js';",
      /projector never imports the api/,
    ],
    [
      'the api from a projector test',
      'projector/x.int.test.ts',
      "import { startJsonRpc } from '../api/jsonrpc/server.js';",
      /projector never imports the api/,
    ],
  ])('fails on %s', async (_kind, filePath, code, message) => {
    const errors = await boundaryErrors(filePath, `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each([
    ['the Kafka library inside platform/kafka/', 'platform/kafka/x.ts', KAFKA_IMPORT],
    ['a test helper from a test', 'api/live/x.int.test.ts', "import { waitFor } from '../../test/support/harness/kafka.js';"],
    ['a contract from a role', 'api/live/x.ts', "import { TOPICS } from '../../schemas/topics.js';"],
    ['the neutral filters from a transport', 'api/jsonrpc/x.ts', "import { compile } from '../filters/index.js';"],
    ['the gRPC host from a service', 'api/grpc/geyser/x.ts', "import { SessionStream } from '../session-stream.js';"],
    ['the gRPC host from the other service', 'api/grpc/stream/x.ts', "import { Outbound } from '../outbound.js';"],
    [
      'a Yellowstone contract from geyser.Geyser',
      'api/grpc/geyser/x.ts',
      "import { GEYSER_SERVICE_NAME } from '../../../schemas/yellowstone/geyser-method.js';",
    ],
    ['the live layer from the gRPC host', 'api/grpc/x.ts', "import { LiveLayer } from '../live/index.js';"],
    ['the role wiring building both services', 'cli/x.ts', "import { geyserService } from '../api/grpc/geyser/service.js';"],
    ['the Agave JSON vocabulary from PubSub', 'api/pubsub/x.ts', "import { parseBody } from '../solana-json/envelope.js';"],
    ['the views from PubSub', 'api/pubsub/x.ts', "import { readSignatureStatuses } from '../views/signature-statuses.js';"],
    ['a contract from the Agave JSON vocabulary', 'api/solana-json/x.ts', "import { decodeBase58 } from '../../schemas/decode-input.js';"],
    ['the Agave JSON vocabulary from the views', 'api/views/x.ts', "import { RpcError } from '../solana-json/errors.js';"],
    ['what the sources share from a source', 'ingest/sources/yellowstone/x.ts', "import { RpcClient } from '../shared/rpc-client.js';"],
    [
      'a contract named like a source from a source',
      'ingest/sources/rpc/x.ts',
      "import { accountToYellowstone } from '../../../schemas/yellowstone/index.js';",
    ],
    [
      'the framer from the simulator (it frames in its worker)',
      'ingest/sources/sim/x.ts',
      "import { SlotFramer } from '../../publish/framer.js';",
    ],
    ['the source contract from the publishing pipeline', 'ingest/publish/x.ts', "import { ChainSource } from '../source.js';"],
    ['a contract from platform/', 'platform/x.ts', "import { SlotstreamError } from '../schemas/errors.js';"],
    ['a test helper from a platform test', 'platform/x.int.test.ts', "import { waitFor } from '../test/support/harness/kafka.js';"],
    ['platform/ from the projector', 'projector/x.ts', "import { registry } from '../platform/metrics.js';"],
    ['a role declaring its options with the machinery', 'ingest/x.ts', "import { defineSection } from '../platform/options.js';"],
  ])('passes %s', async (_kind, filePath, code) => {
    const errors = await boundaryErrors(filePath, `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`);
    expect(errors).toEqual([]);
  });
});
