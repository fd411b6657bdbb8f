import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Import boundaries of docs/architecture.md ("Rules the build enforces, and why"), checked by lint (test/lint-boundaries.unit.test.ts shows each
// kind of forbidden import failing). Patterns match the import string, so relative and absolute forms are listed.
const ROLE_FOLDERS = ['api', 'ingest', 'projector', 'cli', 'platform', 'deploy', 'bench', 'test'];
const KAFKA_LIBRARIES = ['@confluentinc/kafka-javascript', 'node-rdkafka', 'kafkajs'];
const within = (folder) => [`**/${folder}`, `**/${folder}/**`];
// The suite's own config is part of the tests (it names test/support/'s sequencer).
const TEST_FILES = ['**/*.test.ts', 'test/**', 'bench/**', 'vitest.config.ts'];
const INGEST_SOURCES = ['sim', 'file', 'rpc', 'yellowstone'];

// Each boundary is its own rule (`boundary/<name>`, typescript-eslint's no-restricted-imports under another
// name): a file inside several boundaries gets the checks of all of them. Under one shared rule name the last
// matching config's options would replace the others' (flat config), and, say, api/jsonrpc/ would lose the
// product boundary's Kafka and test checks.
const restrictedImports = tseslint.plugin.rules['no-restricted-imports'];
const boundaryRules = {};

/** One boundary: the files it holds for and the imports they must not make, each group with its reason. */
function boundary(name, files, groups, ignores = []) {
  boundaryRules[name] = restrictedImports;
  return {
    name: `slotstream/boundary/${name}`,
    files,
    ignores,
    rules: { [`boundary/${name}`]: ['error', { patterns: groups }] },
  };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'proto/gen/**', 'schemas/gen/**', '.cache/**', 'dist/**', '.data/**', '.scratch*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { URL: 'readonly', console: 'readonly', process: 'readonly' } },
  },
  { name: 'slotstream/boundary', plugins: { boundary: { rules: boundaryRules } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  // Every product file: Kafka only through platform/kafka/, and never a test helper.
  boundary(
    'product',
    ['**/*.ts'],
    [
      { group: KAFKA_LIBRARIES, message: 'Kafka is reached only through platform/kafka/ (the one seam to Kafka).' },
      { group: within('test'), message: 'Product code never imports tests or test/support/.' },
    ],
    [...TEST_FILES, 'platform/kafka/**'],
  ),
  // Tests and benches too: what they need from Kafka the seam offers (a bench once built its own librdkafka client).
  boundary(
    'tests-kafka',
    TEST_FILES.filter((f) => f !== 'vitest.config.ts').map((f) => (f.endsWith('/**') ? `${f}/*.ts` : f)),
    [{ group: KAFKA_LIBRARIES, message: 'Kafka is reached only through platform/kafka/, from tests and benches too.' }],
    ['platform/kafka/**'],
  ),
  boundary(
    'kafka-seam',
    ['platform/kafka/**/*.ts'],
    [{ group: within('test'), message: 'Product code never imports tests or test/support/.' }],
    TEST_FILES,
  ),
  // Contracts are leaves: proto/ and schemas/ import nothing from the roles.
  boundary(
    'contracts',
    ['proto/**/*.ts', 'schemas/**/*.ts'],
    [
      { group: ROLE_FOLDERS.flatMap(within), message: 'Contracts are leaves: proto/ and schemas/ import nothing from the roles.' },
      { group: KAFKA_LIBRARIES, message: 'Kafka is reached only through platform/kafka/.' },
    ],
    TEST_FILES,
  ),
  // Transports never import a sibling transport; what two of them share sits below them (api/filters/,
  // api/live/, api/solana-json/, api/views/).
  boundary(
    'transport-jsonrpc',
    ['api/jsonrpc/**/*.ts'],
    [
      {
        group: ['pubsub', 'grpc', 'geyser'].flatMap(within),
        message: 'A transport never imports a sibling transport; move what both need below them.',
      },
    ],
    TEST_FILES,
  ),
  boundary(
    'transport-grpc',
    ['api/grpc/**/*.ts'],
    [
      {
        group: ['pubsub', 'jsonrpc'].flatMap(within),
        message: 'A transport never imports a sibling transport; move what both need below them.',
      },
    ],
    TEST_FILES,
  ),
  // One gRPC host (api/grpc/*.ts) and its services (api/grpc/<service>/): a service imports the host, never
  // another service; the host knows them only through GrpcService (api/grpc/service.ts), built by the wiring.
  boundary(
    'grpc-service-stream',
    ['api/grpc/stream/**/*.ts'],
    [{ group: within('geyser'), message: 'A gRPC service never imports another service; what both need lives in the host (api/grpc/).' }],
    TEST_FILES,
  ),
  boundary(
    'grpc-service-geyser',
    ['api/grpc/geyser/**/*.ts'],
    [{ group: within('stream'), message: 'A gRPC service never imports another service; what both need lives in the host (api/grpc/).' }],
    TEST_FILES,
  ),
  boundary(
    'grpc-host',
    ['api/grpc/*.ts'],
    [
      {
        group: ['stream', 'geyser'].flatMap(within),
        message: 'The gRPC host knows its services only through GrpcService; the role wiring builds them.',
      },
    ],
    TEST_FILES,
  ),
  // PubSub speaks Agave's JSON through api/solana-json/ and reads the views through api/views/, never through
  // the HTTP transport (issue 19 part 2.1); those two neutral modules sit below every transport.
  boundary(
    'transport-pubsub',
    ['api/pubsub/**/*.ts'],
    [
      {
        group: ['jsonrpc', 'grpc', 'geyser'].flatMap(within),
        message: 'A transport never imports a sibling transport; move what both need below them (api/solana-json/, api/views/).',
      },
    ],
    TEST_FILES,
  ),
  boundary(
    'solana-json',
    ['api/solana-json/**/*.ts'],
    [
      {
        group: ['jsonrpc', 'pubsub', 'grpc', 'geyser'].flatMap(within),
        message: 'api/solana-json/ serves every transport and imports none.',
      },
      { group: within('views'), message: 'api/solana-json/ is pure vocabulary: api/views/ builds on it, not the other way round.' },
    ],
    TEST_FILES,
  ),
  // The ingest's seam (issue 19 item 7): a source never imports a sibling source (what two of them need lives in
  // ingest/sources/shared/); the publishing pipeline knows sources only through ingest/source.ts. The file
  // source's make-example.ts is a tool that runs the simulator to write the shipped example, not source code.
  ...INGEST_SOURCES.map((name) =>
    boundary(
      `ingest-source-${name}`,
      [`ingest/sources/${name}/**/*.ts`],
      [
        {
          group: INGEST_SOURCES.filter((other) => other !== name).flatMap((other) =>
            within(`sources/${other}`).concat(`../${other}/**`, `../../${other}/**`),
          ),
          message: 'A source never imports another source; move what both need to ingest/sources/shared/.',
        },
      ],
      [...TEST_FILES, 'ingest/sources/file/make-example.ts'],
    ),
  ),
  boundary(
    'ingest-publish',
    ['ingest/publish/**/*.ts'],
    [{ group: within('sources'), message: 'The publishing pipeline knows sources only through ingest/source.ts.' }],
    TEST_FILES,
  ),
  // The one access check of every interface: pure key and limit logic that the transports call, never the reverse.
  boundary(
    'access',
    ['api/access/**/*.ts'],
    [
      {
        group: ['jsonrpc', 'pubsub', 'grpc', 'geyser', 'solana-json'].flatMap(within),
        message: 'api/access/ serves every transport and imports none.',
      },
    ],
    TEST_FILES,
  ),
  // platform/ is the generic machinery every role builds on (Kafka and ClickHouse seams, config, logs, metrics):
  // it never imports a role, tests included. Each role declares its own options and cli/ composes them.
  boundary(
    'platform',
    ['platform/**/*.ts'],
    [
      {
        group: ['api', 'ingest', 'projector', 'cli'].flatMap(within),
        message:
          'platform/ is generic machinery and never imports a role (api/, ingest/, projector/, cli/); the wiring in cli/ composes them.',
      },
    ],
  ),
  // The projector builds the views the api reads: it never imports the api (what both need sits in platform/ or
  // schemas/; the wiring hands the rest in). Its tests included: a test of both sits in test/.
  boundary(
    'projector',
    ['projector/**/*.ts'],
    [{ group: within('api'), message: 'The projector never imports the api; the wiring (cli/) hands in what it needs.' }],
  ),
  boundary(
    'views',
    ['api/views/**/*.ts'],
    [{ group: ['jsonrpc', 'pubsub', 'grpc', 'geyser'].flatMap(within), message: 'api/views/ serves every transport and imports none.' }],
    TEST_FILES,
  ),
);
