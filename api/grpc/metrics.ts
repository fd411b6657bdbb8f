// gRPC stream metrics on the shared registry; created once per process (several servers in one test
// process share them).
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../platform/metrics.js';

export const openStreams = new Gauge({
  name: 'slotstream_grpc_streams',
  help: 'Open gRPC streams by method.',
  labelNames: ['method'] as const,
  registers: [registry],
});

export const slowClientCutoffs = new Counter({
  name: 'slotstream_grpc_slow_client_cutoffs_total',
  help: 'Streams ended with RESOURCE_EXHAUSTED because their queue was full.',
  registers: [registry],
});

export const compressedMessages = new Counter({
  name: 'slotstream_grpc_compressed_messages_total',
  help: 'gRPC response messages sent compressed (issue 23), by encoding.',
  labelNames: ['encoding'] as const,
  registers: [registry],
});

export const compressionBytes = new Counter({
  name: 'slotstream_grpc_compression_bytes_total',
  help: 'Bytes of the gRPC response messages sent compressed: before (plain) and after (wire) compression, by encoding.',
  labelNames: ['encoding', 'stage'] as const,
  registers: [registry],
});
