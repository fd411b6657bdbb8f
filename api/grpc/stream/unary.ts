// stream.Stream's unary calls (behaviour.md "Unary calls"): Ping echoes its count, GetVersion answers the
// host's version string.
import type { GetVersionResponse, PingRequest, PongResponse } from '../../../proto/gen/stream.js';
import { versionString } from '../version.js';

export const streamUnary = {
  ping: (req: PingRequest): PongResponse => ({ count: req.count }),
  getVersion: (): GetVersionResponse => ({ version: versionString() }),
};
