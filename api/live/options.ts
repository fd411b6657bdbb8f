// The live layer's section of the config: the topics it reads, its replays and pings; the typed value is
// LiveLayer.start's options minus the injected clients.
import { ConfigError, defineSection, flagOf, opt, type Role, type ValuesOf } from '../../platform/options.js';
import type { TopicKind } from '../../schemas/topics.js';
import type { LiveLayerOptions } from './index.js';

const API: readonly Role[] = ['api', 'all'];

export const LIVE_OPTIONS = {
  liveTopics: opt({
    kind: 'list',
    env: 'LIVE_TOPICS',
    default: ['transactions', 'accounts', 'entries', 'parsed'],
    roles: API,
    help: "Streams (gRPC, PubSub): the topics this process's live layer reads besides the slots topic (any of transactions, accounts, entries, parsed). A replica that serves only SubscribeParsed reads parsed alone (one record per update instead of the chain's 3.5: bench/README.md); a stream asking for a topic not read ends with UNAVAILABLE naming it.",
  }),
  maxReplays: opt({
    kind: 'int',
    env: 'LIVE_MAX_REPLAYS',
    default: 8,
    min: 1,
    roles: API,
    help: 'Streams (stream.Stream and geyser.Geyser): from_slot replays running at once in this process (each reads Kafka history with its own reader); one more is refused with RESOURCE_EXHAUSTED naming this limit.',
  }),
  pingIntervalMs: opt({
    kind: 'int',
    env: 'GRPC_PING_MS',
    default: 10000,
    min: 100,
    roles: API,
    help: 'gRPC: server ping interval on every stream.',
  }),
};

export type LiveSection = Omit<LiveLayerOptions, 'kafka' | 'topics' | 'views' | 'log'>;

/** Besides its own: how streams read Kafka (--live-read, api/options.ts). */
type LiveConfig = ValuesOf<typeof LIVE_OPTIONS> & { liveRead: LiveLayerOptions['read'] };

const LIVE_TOPICS = ['transactions', 'accounts', 'entries', 'parsed'];

/** --live-topics names data topics the live layer can read, each once (the slots topic is always read). */
function checkLiveTopics(config: LiveConfig): void {
  const bad = config.liveTopics.find((t) => !LIVE_TOPICS.includes(t));
  if (bad !== undefined)
    throw new ConfigError(
      `option ${flagOf('liveTopics')}: ${JSON.stringify(bad)} is not one of ${LIVE_TOPICS.join(', ')} (the slots topic is always read)`,
    );
  const twice = config.liveTopics.find((t, i) => config.liveTopics.indexOf(t) !== i);
  if (twice !== undefined) throw new ConfigError(`option ${flagOf('liveTopics')}: ${twice} is named twice`);
}

export const LIVE_SECTION = defineSection(
  LIVE_OPTIONS,
  (c: LiveConfig): LiveSection => ({
    pingIntervalMs: c.pingIntervalMs,
    read: c.liveRead,
    maxReplays: c.maxReplays,
    // checkLiveTopics lets only data topic kinds through.
    kinds: ['slots', ...(c.liveTopics as TopicKind[])],
  }),
  checkLiveTopics,
);
