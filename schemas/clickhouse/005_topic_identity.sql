-- The Kafka topics the views were built from, by topic id (Kafka draws a new id whenever a topic is
-- created), so a projector that starts against other topics of the same names (a new local broker, topics
-- recreated) sees that the views hold positions those topics never had and starts them afresh instead of
-- serving a mix (projector/topic-identity.ts; issue 18, item 7).
CREATE TABLE IF NOT EXISTS {db}.topic_identity (
  topic String,
  topic_id String,
  recorded_at DateTime64(3) DEFAULT now64(3)
) ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY topic;
