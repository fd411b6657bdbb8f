// PubSub's section of the config (Solana WebSocket subscriptions): its port and limits; the address is the api's.
import { defineSection, opt, type Role, type ValuesOf } from '../../platform/options.js';
import type { PubSubOptions } from './server.js';

const API: readonly Role[] = ['api', 'all'];

export const PUBSUB_OPTIONS = {
  pubsubPort: opt({
    kind: 'int',
    env: 'PUBSUB_PORT',
    default: 8900,
    min: 0,
    max: 65535,
    roles: API,
    help: 'PubSub (Solana WebSocket subscriptions) port, the JSON-RPC port + 1 as Agave (0 = any free port).',
  }),
  pubsubMaxConnections: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_CONNECTIONS',
    default: 10_000,
    min: 1,
    roles: API,
    help: 'PubSub: open WebSocket connections; one more is refused with HTTP 503.',
  }),
  pubsubMaxSubscriptions: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_SUBSCRIPTIONS',
    default: 1_000,
    min: 1,
    roles: API,
    help: 'PubSub: subscriptions per connection; one more is refused with -32603 (Agave\'s "subscription limit reached").',
  }),
  pubsubMaxMessageBytes: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_MESSAGE',
    // Helius's transactionSubscribe takes up to 50,000 addresses in each of its three lists: ~7.1 MB of JSON.
    default: 8 * 1024 * 1024,
    min: 1024,
    roles: API,
    help: 'PubSub: largest message a client may send; a larger one closes the connection with 1009 (message too big). The default takes a transactionSubscribe with 3 lists of 50,000 addresses.',
  }),
  pubsubMaxBufferedBytes: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_BUFFERED',
    default: 16 * 1024 * 1024,
    min: 1024,
    roles: API,
    help: 'PubSub: bytes a connection may owe its client; beyond, the client is too slow and the connection is closed (1008).',
  }),
  pubsubPingMs: opt({
    kind: 'int',
    env: 'PUBSUB_PING_MS',
    default: 30_000,
    min: 100,
    roles: API,
    help: 'PubSub: WebSocket ping interval; a connection that has answered none of the last two pings is closed.',
  }),
};

export type PubSubSection = Pick<
  PubSubOptions,
  'host' | 'port' | 'maxConnections' | 'maxSubscriptionsPerConnection' | 'maxMessageBytes' | 'maxBufferedBytes' | 'pingIntervalMs'
>;

/** Besides its own: the api's address (api/options.ts). */
export const PUBSUB_SECTION = defineSection(PUBSUB_OPTIONS, (c: ValuesOf<typeof PUBSUB_OPTIONS> & { host: string }): PubSubSection => ({
  host: c.host,
  port: c.pubsubPort,
  maxConnections: c.pubsubMaxConnections,
  maxSubscriptionsPerConnection: c.pubsubMaxSubscriptions,
  maxMessageBytes: c.pubsubMaxMessageBytes,
  maxBufferedBytes: c.pubsubMaxBufferedBytes,
  pingIntervalMs: c.pubsubPingMs,
}));
