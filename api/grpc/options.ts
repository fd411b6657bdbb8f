// The gRPC host's section of the config: its queue and compression, and each service's filter limits
// (stream.Stream's and geyser.Geyser's); the port and address are the api's (api/options.ts).
import { choice, defineSection, opt, type Role, type ValuesOf } from '../../platform/options.js';
import type { GeyserFilterLimits } from '../filters/from-geyser.js';
import type { FilterLimits } from '../filters/types.js';
import type { CompressionPolicy } from './compression.js';

const API: readonly Role[] = ['api', 'all'];

export const GRPC_OPTIONS = {
  maxFiltersPerKind: opt({
    kind: 'int',
    env: 'GRPC_MAX_FILTERS',
    default: 100,
    min: 1,
    roles: API,
    help: 'gRPC: named filters per kind per stream.',
  }),
  maxKeysPerList: opt({ kind: 'int', env: 'GRPC_MAX_KEYS', default: 10000, min: 1, roles: API, help: 'gRPC: keys per filter list.' }),
  maxInstructionConditions: opt({
    kind: 'int',
    env: 'GRPC_MAX_INSTRUCTION_CONDITIONS',
    default: 64,
    min: 1,
    roles: API,
    help: 'gRPC stream.Stream: instruction conditions per transaction filter.',
  }),
  streamQueueSize: opt({
    kind: 'int',
    env: 'GRPC_QUEUE',
    default: 20000,
    min: 1,
    roles: API,
    help: 'gRPC: updates queued per stream before a slow client is cut off (RESOURCE_EXHAUSTED).',
  }),
  grpcCompress: choice({
    env: 'GRPC_COMPRESS',
    default: 'zstd',
    oneOf: ['zstd', 'all', 'none'],
    roles: API,
    help:
      'gRPC response compression for clients that accept it (grpc-accept-encoding): zstd only; all (zstd, else gzip: ' +
      'grpc-js clients accept gzip unasked); none. zstd requests are accepted unless none; gzip ones always.',
  }),
  geyserMaxFilters: opt({
    kind: 'int',
    env: 'GEYSER_MAX_FILTERS',
    default: 100,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: named filters per kind per stream (Yellowstone limits max).',
  }),
  geyserMaxKeys: opt({
    kind: 'int',
    env: 'GEYSER_MAX_KEYS',
    default: 10000,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: keys per filter list (account, owner, account_include/exclude/required).',
  }),
  geyserMaxMemcmpBytes: opt({
    kind: 'int',
    env: 'GEYSER_MAX_MEMCMP_BYTES',
    default: 128,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: bytes of memcmp data after decoding.',
  }),
  geyserMaxFilterNameBytes: opt({
    kind: 'int',
    env: 'GEYSER_MAX_FILTER_NAME_BYTES',
    default: 128,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: UTF-8 bytes of a filter name.',
  }),
  geyserMaxDataSlices: opt({
    kind: 'int',
    env: 'GEYSER_MAX_DATA_SLICES',
    default: 16,
    min: 0,
    roles: API,
    help: 'geyser.Geyser: entries of accounts_data_slice.',
  }),
  geyserMaxCuckooBytes: opt({
    kind: 'int',
    env: 'GEYSER_MAX_CUCKOO_BYTES',
    default: 3 * 1024 * 1024,
    min: 8,
    roles: API,
    help:
      'geyser.Geyser: bytes of one cuckoo filter (compressed address set); ~8 MiB per 2M keys, 32 MiB for 10M. The gRPC ' +
      'inbound message cap rises with it (1 MiB above) when past its 4 MiB.',
  }),
};

export interface GrpcSection {
  host: string;
  port: number;
  /** Updates queued per stream before a slow client is cut off. */
  queueSize: number;
  /** Response compression for clients that accept it (issue 23). */
  compress: CompressionPolicy;
  stream: { limits: FilterLimits };
  geyser: { limits: GeyserFilterLimits };
}

/** Besides its own: the api's address and gRPC port (api/options.ts). */
export const GRPC_SECTION = defineSection(
  GRPC_OPTIONS,
  (c: ValuesOf<typeof GRPC_OPTIONS> & { host: string; grpcPort: number }): GrpcSection => ({
    host: c.host,
    port: c.grpcPort,
    queueSize: c.streamQueueSize,
    compress: c.grpcCompress,
    stream: {
      limits: {
        maxFiltersPerKind: c.maxFiltersPerKind,
        maxKeysPerList: c.maxKeysPerList,
        maxInstructionConditions: c.maxInstructionConditions,
      },
    },
    geyser: {
      limits: {
        maxFiltersPerKind: c.geyserMaxFilters,
        maxKeysPerFilter: c.geyserMaxKeys,
        maxMemcmpBytes: c.geyserMaxMemcmpBytes,
        maxFilterNameBytes: c.geyserMaxFilterNameBytes,
        maxDataSlices: c.geyserMaxDataSlices,
        maxCuckooBytes: c.geyserMaxCuckooBytes,
      },
    },
  }),
);
