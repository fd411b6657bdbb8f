// Writes the heads table (see heads.ts for the rule) and the group's lag, on a timer.
import type { ClickHouseClient } from '@clickhouse/client';
import type { KafkaAdmin } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import type { OffsetMap } from '../platform/kafka/index.js';
import { advanceHeads, caughtUp, COMMITMENTS, HeadsQuiet, lagOf, type Heads } from './heads.js';
import { headSlot, kafkaLag } from './metrics.js';
import { committedOffsets, endOffsets } from './offsets.js';

export interface HeadsTrackerOptions {
  ch: ClickHouseClient;
  database: string;
  admin: KafkaAdmin;
  groupId: string;
  topics: readonly string[];
  intervalMs: number;
  log: Logger;
}

interface Barrier {
  candidates: Heads;
  ends: OffsetMap;
  /** The committed offsets when the candidates were read. */
  after: OffsetMap;
}

export class HeadsTracker {
  private barrier: Barrier | undefined;
  private lastLag: bigint | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;
  /** Heads only grow, so slots below the last finalized head need not be scanned again. */
  private floor = 0n;
  /** Whether a step can skip the views (nothing committed since the heads said all the views hold). */
  private readonly quiet = new HeadsQuiet();

  constructor(private readonly o: HeadsTrackerOptions) {}

  start(): void {
    const loop = (): void => {
      if (this.stopped) return;
      this.ticking = this.tick()
        .catch((err: unknown) => this.o.log.warn({ err }, 'projector: heads update failed; retrying'))
        .finally(() => {
          this.ticking = undefined;
          if (!this.stopped) this.timer = setTimeout(loop, this.o.intervalMs);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  /** One step: publish the pending barrier if the group reached it, then set the next one. */
  async tick(): Promise<void> {
    const committed = await this.committedOffsets();
    if (this.quiet.settled(committed)) {
      // Nothing projected since: only the lag can have moved (records the group has yet to read).
      await this.noteLag(lagOf(await this.endOffsets(), committed));
      return;
    }
    if (this.barrier && caughtUp(this.barrier.ends, committed)) {
      const b = this.barrier;
      await this.publish(b.candidates);
      this.quiet.published(b.after, b.ends);
      if (this.barrier === b) this.barrier = undefined;
    }
    // Candidates first, end offsets second: every record of a candidate slot lies below these ends.
    const candidates = await this.candidates();
    const ends = await this.endOffsets();
    const lag = lagOf(ends, committed);
    await this.noteLag(lag);
    this.barrier ??= { candidates, ends, after: committed };
  }

  private async noteLag(lag: bigint): Promise<void> {
    kafkaLag.set({ database: this.o.database }, Number(lag));
    if (lag === this.lastLag) return;
    await this.o.ch.insert({
      table: `${this.o.database}.heads`,
      values: [{ commitment: 'kafka_lag', slot: lag.toString() }],
      columns: ['commitment', 'slot'],
      format: 'JSONEachRow',
    });
    this.lastLag = lag;
  }

  private async candidates(): Promise<Heads> {
    const rs = await this.o.ch.query({
      query: `SELECT
          countIf(status IN (0, 1, 2)) AS np, maxIf(slot, status IN (0, 1, 2)) AS p,
          countIf(status IN (1, 2)) AS nc, maxIf(slot, status IN (1, 2)) AS c,
          countIf(status = 2) AS nf, maxIf(slot, status = 2) AS f
        FROM ${this.o.database}.slot_status WHERE slot >= {floor:UInt64}`,
      query_params: { floor: this.floor.toString() },
      format: 'JSONEachRow',
    });
    const [r] = await rs.json<Record<string, string>>();
    const heads: Heads = {};
    if (r && BigInt(r.np!) > 0n) heads.processed = BigInt(r.p!);
    if (r && BigInt(r.nc!) > 0n) heads.confirmed = BigInt(r.c!);
    if (r && BigInt(r.nf!) > 0n) heads.finalized = BigInt(r.f!);
    return heads;
  }

  private async publish(found: Heads): Promise<void> {
    const rs = await this.o.ch.query({
      query: `SELECT commitment, slot FROM ${this.o.database}.heads FINAL WHERE commitment IN ('processed', 'confirmed', 'finalized')`,
      format: 'JSONEachRow',
    });
    const stored: Heads = {};
    for (const r of await rs.json<{ commitment: string; slot: string }>()) {
      stored[r.commitment as keyof Heads] = BigInt(r.slot);
    }
    const next = advanceHeads(stored, found);
    for (const c of COMMITMENTS) {
      const slot = next[c] ?? stored[c];
      if (slot !== undefined) headSlot.set({ database: this.o.database, commitment: c }, Number(slot));
    }
    const finalized = next.finalized ?? stored.finalized;
    if (finalized !== undefined && finalized > this.floor) this.floor = finalized;
    const values = COMMITMENTS.filter((c) => next[c] !== undefined).map((c) => ({ commitment: c, slot: next[c]!.toString() }));
    if (values.length === 0) return;
    await this.o.ch.insert({ table: `${this.o.database}.heads`, values, columns: ['commitment', 'slot'], format: 'JSONEachRow' });
  }

  private committedOffsets(): Promise<OffsetMap> {
    return committedOffsets(this.o.admin, this.o.groupId, this.o.topics);
  }

  private endOffsets(): Promise<OffsetMap> {
    return endOffsets(this.o.admin, this.o.topics);
  }
}
