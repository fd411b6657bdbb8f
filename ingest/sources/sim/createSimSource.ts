// The simulator as a ChainSource: paces SimChain's slots on a wall clock, each slot handed over in
// pieces across its duration (spread.ts; unpaced, whole slots), and resumes after a slot by
// regenerating the chain from genesis without emitting (so a resumed run is byte-identical to an
// uninterrupted one).
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { ChainSource, SlotBatch } from '../../source.js';
import { SimChain } from './chain.js';
import { validateSimOptions, type SimOptions } from './options.js';
import { DEFAULT_PUMP_MIX } from './pump-mix.js';
import { piecesFor, spreadSlot } from './spread.js';
import { selectVotes } from '../shared/votes.js';

export function createSimSource(opts: SimOptions): ChainSource {
  return simSource(validateSimOptions({ ...opts }), () => undefined);
}

/** The simulator with its chain built ahead (thread.ts starts one while an ingest stands by). */
export interface PreparedSim {
  /** Its first `batches` call continues the prepared chain (when it has not passed the resume slot); later calls
   * build their own. */
  source: ChainSource;
  /** Fast-forwards the prepared chain through `slot` (a slot the resume point cannot precede: one whose end marker
   * Kafka holds). Calls are serialized; one that does not move forward does nothing. */
  advance(slot: bigint): Promise<void>;
}

/** A chain fast-forwarded to `next` (the first slot it has not built). */
interface ReadyChain {
  chain: SimChain;
  next: number;
}

/**
 * The simulator with its chain built now (keys, validators, programs: the warm-up), so that a takeover neither
 * waits for that nor, when `advance` followed the active copy, for most of the fast-forward to its resume slot.
 */
export function prepareSimSource(opts: SimOptions): PreparedSim {
  const o = validateSimOptions({ ...opts });
  let ready: ReadyChain | undefined = { chain: new SimChain(o), next: 0 };
  let advancing: Promise<void> = Promise.resolve();
  return {
    source: simSource(o, () => {
      const r = ready;
      ready = undefined;
      return r;
    }),
    advance(slot) {
      advancing = advancing.then(async () => {
        const to = Math.min(Number(slot) + 1, o.maxSlots === 0 ? Infinity : o.maxSlots);
        while (ready && ready.next < to) {
          ready.chain.next('skip');
          if (ready.next++ % 64 === 63) await yieldToLoop();
        }
      });
      return advancing;
    },
  };
}

function simSource(o: SimOptions, takeReady: () => ReadyChain | undefined): ChainSource {
  const notes = [
    `simulated chain: seed ${o.seed}, ${o.tps} tps of chain time, ${o.validators} validators, ` +
      `${o.slotsPerEpoch} slots per epoch, skip rate ${o.skipRate}, dead-fork rate ${o.deadRate}, ` +
      (o.entries ? 'entries published, ' : 'no entries, ') +
      (o.slotMs === 0 ? 'unpaced (as fast as possible)' : `${o.slotMs} ms per slot`) +
      (o.maxSlots > 0 ? `, stopping after ${o.maxSlots} slots` : ''),
  ];
  const m = o.pumpMix ?? DEFAULT_PUMP_MIX;
  notes.push(
    `pump mix (October 2026 shapes): v3 curve trades ${m.curveV3}, PumpSwap v2 trades ${m.poolV2}, sweeps ${m.sweep}, ` +
      `synthetic-migration buys ${m.graduate}`,
  );
  if (o.fast) notes.push('FAST MODE: transaction signatures are seeded random bytes, NOT ed25519 signatures; they will not verify');
  return selectVotes({ notes, batches: ({ afterSlot, signal }) => run(o, takeReady(), afterSlot, signal) }, o.votes ?? 'include');
}

async function* run(
  o: SimOptions,
  prepared: ReadyChain | undefined,
  afterSlot: bigint | undefined,
  signal?: AbortSignal,
): AsyncGenerator<SlotBatch> {
  const first = afterSlot === undefined ? 0 : Number(afterSlot) + 1;
  if (afterSlot !== undefined && (afterSlot < 0n || afterSlot > BigInt(Number.MAX_SAFE_INTEGER))) {
    throw new RangeError(`afterSlot out of range: ${afterSlot}`);
  }
  // A prepared chain past the resume slot cannot go back: build afresh (a hint never passes it; this is a guard).
  const ready = prepared && prepared.next <= first ? prepared : undefined;
  const chain = ready?.chain ?? new SimChain(o);
  const sign = o.fast ? 'fast' : 'ed25519';
  let emitted = 0;
  let t0 = 0;
  for (let slot = ready?.next ?? 0; o.maxSlots === 0 || slot < o.maxSlots; slot++) {
    if (signal?.aborted) return;
    if (slot < first) {
      chain.next('skip'); // fast-forward: same state transitions, nothing materialized, no pacing
      if (slot % 64 === 63) await yieldToLoop();
      continue;
    }
    const batch = chain.next(sign);
    if (o.slotMs > 0) {
      // Paced: the slot's pieces spread over its duration, the last one (with the slot's end) last.
      if (emitted === 0) t0 = performance.now();
      const pieces = spreadSlot(batch, piecesFor(o.slotMs));
      for (let i = 0; i < pieces.length; i++) {
        const wait = t0 + emitted * o.slotMs + (i * o.slotMs) / pieces.length - performance.now();
        if (wait > 0) {
          try {
            await sleep(wait, undefined, { signal });
          } catch {
            return; // aborted while waiting
          }
        }
        yield pieces[i]!;
      }
      emitted++;
      continue;
    }
    if (emitted % 16 === 15) await yieldToLoop(); // let I/O run between batches when unpaced
    emitted++;
    yield batch;
  }
}
