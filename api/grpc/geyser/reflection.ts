// Server reflection for geyser.Geyser. @triton-one/yellowstone-grpc ships generated code only (no .proto
// files, no descriptors), so the descriptors are loaded at run time from laserstream-core-proto-js (Helius's
// published copy of Yellowstone's geyser.proto and solana-storage.proto, pinned in package.json). Its
// messages and field numbers are Yellowstone's for everything this server answers; its service also lists
// LaserStream's SubscribePreprocessed, which this server does not implement (UNIMPLEMENTED, as for
// Yellowstone methods we do not serve).
import { createRequire } from 'node:module';
import path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';

const require = createRequire(import.meta.url);

export function geyserReflectionPackage(): protoLoader.PackageDefinition {
  const file = require.resolve('laserstream-core-proto-js/geyser.proto');
  return protoLoader.loadSync(file, {
    includeDirs: [path.dirname(file)],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
}
