import { describe, expect, it } from 'vitest';
import { OffsetMap } from '../platform/kafka/index.js';
import { judgeViews } from './topic-identity.js';

const ids = (o: Record<string, string>) => new Map(Object.entries(o));
// 'topic/partition' -> offset
const offsets = (o: Record<string, bigint>) =>
  OffsetMap.of(Object.entries(o).map(([k, v]) => [k.split('/')[0]!, Number(k.split('/')[1]), v] as const));

describe('judgeViews: may the views be served with these topics?', () => {
  it('keeps views recorded with the same topic ids', () => {
    expect(
      judgeViews({
        recorded: ids({ t: 'A', s: 'B' }),
        current: ids({ t: 'A', s: 'B' }),
        viewEnds: offsets({ 't/0': 900n }),
        topicEnds: offsets({}),
      }),
    ).toEqual({ action: 'keep' });
  });

  it('resets views built from another topic of the same name (a new broker, a recreated topic), naming it', () => {
    const v = judgeViews({
      recorded: ids({ t: 'A', s: 'B' }),
      current: ids({ t: 'A', s: 'C' }),
      viewEnds: offsets({}),
      topicEnds: offsets({}),
    });
    expect(v).toEqual({
      action: 'reset',
      reason: expect.stringMatching(/topic s is not the one the views were built from \(topic id B, now C\)/),
    });
  });

  it('records a topic it has no id of yet (a new topic kind) without resetting', () => {
    expect(
      judgeViews({ recorded: ids({ t: 'A' }), current: ids({ t: 'A', s: 'B' }), viewEnds: offsets({}), topicEnds: offsets({}) }),
    ).toEqual({ action: 'record' });
  });

  it('without recorded ids, resets views holding positions the topics do not have', () => {
    const v = judgeViews({
      recorded: ids({}),
      current: ids({ t: 'A' }),
      viewEnds: offsets({ 't/0': 10n, 't/1': 412n }),
      topicEnds: offsets({ 't/0': 10n, 't/1': 250n }),
    });
    expect(v).toEqual({ action: 'reset', reason: 'the views hold t/1 up to offset 412, the topic only up to 250' });
    expect(
      judgeViews({ recorded: ids({}), current: ids({ t: 'A' }), viewEnds: offsets({ 't/2': 1n }), topicEnds: offsets({}) }).action,
    ).toBe('reset');
  });

  it('without recorded ids, records when the topics hold everything the views do (or the views are empty)', () => {
    expect(
      judgeViews({ recorded: ids({}), current: ids({ t: 'A' }), viewEnds: offsets({ 't/0': 10n }), topicEnds: offsets({ 't/0': 12n }) }),
    ).toEqual({ action: 'record' });
    expect(judgeViews({ recorded: ids({}), current: ids({ t: 'A' }), viewEnds: offsets({}), topicEnds: offsets({}) })).toEqual({
      action: 'record',
    });
  });
});
