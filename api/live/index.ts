// The transport-neutral live layer (see README.md): what stream.Stream, geyser.Geyser and PubSub build on.
export { LiveLayer, type LiveLayerOptions } from './layer.js';
export { LiveSession, type ApplyOptions, type LiveFailure, type SessionSink } from './session.js';
export { CursorStore, type CursorPosition } from './cursor-store.js';
export { boundsFromMetadata, cursorStart, streamBounds, GEYSER_METADATA, STREAM_FIELD_NAMES, type StreamBounds } from './stream-bounds.js';
export { SharedEvent, type LiveEvent, type LiveKind } from './shared-event.js';
export type { LiveRead } from './live-tail.js';
export type { StreamEvent } from './stream-event.js';
export type { LiveConsumer } from './hub.js';
export { ChainState, BLOCKHASH_VALID_BLOCKS, type BlockAt } from './chain-state.js';
export { planReplay, ReplayOutOfRange, type ReplayPlan } from './replay.js';
export { DEFAULT_MAX_REPLAYS, ReplayLimit } from './replay-limit.js';
export { NewestWrites, type Newest, type SlotWrites, type Write } from './newest-writes.js';
export { isLevel, isTerminal, reached, takesPart, combineStatus } from './slot-status.js';
export { streamTopics, STREAM_KINDS } from './stream-event.js';
export type { StreamViews, SlotOffsetRow, LogStart, ViewsSignatureStatus, ViewsCommitment } from './stream-views.js';
export { clickHouseViews } from './views-clickhouse.js';
