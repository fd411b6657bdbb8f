// Group progress as seen by the broker: end offsets of every partition and the group's commits.
import type { KafkaAdmin, OffsetMap } from '../platform/kafka/index.js';

export const endOffsets = (admin: KafkaAdmin, topics: readonly string[]): Promise<OffsetMap> => admin.endOffsets(topics);

export const committedOffsets = (admin: KafkaAdmin, groupId: string, topics: readonly string[]): Promise<OffsetMap> =>
  admin.committedOffsets(groupId, topics);
