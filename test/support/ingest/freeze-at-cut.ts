// Freezes an ingest child at a moment when it has cut a slot: Kafka holds committed records of a slot whose end
// marker is not committed yet, so a SIGKILL then lands mid-slot. A kill at a random moment lands there only by
// chance (each paced slot spans several Kafka transactions, but on a busy machine one commit often takes a whole
// slot), and every miss costs a restart. So the child is frozen (SIGSTOP: nothing more commits), Kafka is asked what
// it holds committed, and the child stays frozen when that is a cut slot; otherwise it is woken (SIGCONT) and frozen
// again a moment later. A transaction it had open stays open while it is frozen (not committed; the kill aborts it),
// so what Kafka holds committed then is what a restarted ingest finds.
import { resumePoint, type ResumePoint } from '../../../ingest/publish/resume-point.js';
import type { Kafka } from '../../../platform/kafka/index.js';
import type { TopicNames } from '../../../schemas/topics.js';

export interface Freezable {
  readonly pid: number;
  running(): boolean;
}

export interface FreezeOptions {
  timeoutMs: number;
  /** Longest pause between two freezes (a random part of it each time). */
  pauseMs?: number;
  /** Asked before waking the child after a freeze that found no cut slot: false leaves it frozen and ends the search
   * (a standby took over meanwhile, so the woken child would be a zombie). */
  mayWake?: () => boolean;
}

export interface Frozen {
  /** What Kafka held committed while the child was frozen: `openSlot` is the cut slot (undefined: none). */
  point: ResumePoint;
  freezes: number;
  /** Date.now() as the last freeze began (when the child's heartbeat stopped). */
  frozenAt: number;
}

/**
 * Returns with the child frozen at a cut slot (or where `mayWake` said no); the caller kills it. A commit the broker
 * was finishing as the child froze can still complete the slot after the freeze: read the resume point again after
 * the kill. Throws when the child exits on its own (it finished the chain) or the deadline passes.
 */
export async function freezeAtCut(child: Freezable, kafka: Kafka, topics: TopicNames, o: FreezeOptions): Promise<Frozen> {
  const deadline = Date.now() + o.timeoutMs;
  for (let freezes = 1; ; freezes++) {
    const frozenAt = Date.now();
    if (!child.running() || !signal(child, 'SIGSTOP'))
      throw new Error(`the ingest exited before a freeze found a cut slot (${freezes - 1} freezes)`);
    const point = await resumePoint(kafka, topics, { timeoutMs: 20_000 });
    if (point.openSlot !== undefined || (o.mayWake && !o.mayWake())) return { point, freezes, frozenAt };
    signal(child, 'SIGCONT');
    // Woken first: a child left frozen would hold its open transaction until the caller's cleanup kills it.
    if (Date.now() >= deadline) throw new Error(`no freeze found a cut slot in ${o.timeoutMs} ms (${freezes} freezes)`);
    await new Promise((r) => setTimeout(r, Math.random() * (o.pauseMs ?? 100)));
  }
}

/** False when the child is gone already (it finished between the check and the signal). */
function signal(child: Freezable, sig: NodeJS.Signals): boolean {
  try {
    process.kill(child.pid, sig);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}
