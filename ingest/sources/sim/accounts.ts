// The simulated bank: one mutable Acct object per address, so transaction compilation can dedupe
// accounts by identity and state changes are plain field updates.
import type { KeyObject } from 'node:crypto';
import { SYSTEM_PROGRAM, U64_MAX } from './programs.js';
import { asBuffer } from '../../../schemas/bytes.js';

export class Acct {
  /** 0 lamports: the account does not exist (yet). */
  lamports = 0n;
  owner: Buffer = SYSTEM_PROGRAM;
  data: Buffer = EMPTY;
  executable = false;
  rentEpoch = U64_MAX;
  privateKey?: KeyObject;
  constructor(readonly key: Buffer) {}

  get exists(): boolean {
    return this.lamports > 0n;
  }
}

const EMPTY = Buffer.alloc(0);

export class World {
  private readonly byKey = new Map<string, Acct>();

  /** The account at `key`, created empty (0 lamports, system-owned) on first sight. */
  at(key: Buffer): Acct {
    const id = key.toString('latin1');
    let a = this.byKey.get(id);
    if (!a) {
      a = new Acct(key);
      this.byKey.set(id, a);
    }
    return a;
  }

  find(key: Uint8Array): Acct | undefined {
    return this.byKey.get(asBuffer(key).toString('latin1'));
  }

  all(): IterableIterator<Acct> {
    return this.byKey.values();
  }

  totalLamports(): bigint {
    let t = 0n;
    for (const a of this.byKey.values()) t += a.lamports;
    return t;
  }
}
