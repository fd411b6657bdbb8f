// One entry point for every event kind: decoded event in, rows out. Pure.
import type { ChainEvent } from '../../schemas/codec.js';
import { projectAccount } from './accounts.js';
import { projectEpoch } from './epochs.js';
import type { Projection } from './result.js';
import { projectSlot } from './slots.js';
import { projectTransaction } from './transactions.js';

export type { Projection } from './result.js';

export function project(e: ChainEvent): Projection {
  switch (e.kind) {
    case 'transactions':
      return projectTransaction(e.event);
    case 'accounts':
      return projectAccount(e.event);
    case 'slots':
      return projectSlot(e.event);
    case 'epochs':
      return projectEpoch(e.event);
  }
}

/** The slot a record belongs to for replay (an epoch record belongs to the epoch's first slot). */
export function slotOf(e: ChainEvent): bigint {
  switch (e.kind) {
    case 'transactions':
    case 'accounts':
    case 'slots':
      return e.event.slot;
    case 'epochs':
      return e.event.firstSlot;
  }
}
