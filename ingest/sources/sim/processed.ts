// The simulated runtime's status cache. Agave refuses a transaction whose signature it already processed
// while the transaction's recent blockhash is still valid (AlreadyProcessed); an ed25519 signature is a
// function of the signer and the message, so a message the chain already holds would repeat a signature,
// which no real chain does and which made getBlock list a signature twice (issue 18, item 11). Messages
// are kept per recent blockhash and forgotten with it, as Agave's cache does.
import { createHash } from 'node:crypto';
import type { CompiledMessage } from './compile.js';

/** A digest of everything the signers sign: header, keys, recent blockhash, instructions, lookups. */
export function messageDigest(msg: CompiledMessage, recentBlockhash: Buffer): string {
  const h = createHash('sha256');
  // Every variable-length part is preceded by its length, so two different messages never hash alike.
  const u32 = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  h.update(Buffer.from([msg.versioned ? 1 : 0, msg.numRequiredSignatures, msg.numReadonlySignedAccounts, msg.numReadonlyUnsignedAccounts]));
  h.update(recentBlockhash).update(u32(msg.staticKeys.length));
  for (const a of msg.staticKeys) h.update(a.key);
  h.update(u32(msg.instructions.length));
  for (const ix of msg.instructions) {
    h.update(u32(ix.programIdIndex)).update(u32(ix.accounts.length)).update(ix.accounts).update(u32(ix.data.length)).update(ix.data);
  }
  h.update(u32(msg.lookups.length));
  for (const l of msg.lookups) {
    h.update(l.accountKey)
      .update(u32(l.writableIndexes.length))
      .update(l.writableIndexes)
      .update(u32(l.readonlyIndexes.length))
      .update(l.readonlyIndexes);
  }
  return h.digest('hex');
}

export class ProcessedMessages {
  /** recent blockhash (hex) -> digests of the messages processed with it. */
  private readonly byBlockhash = new Map<string, Set<string>>();

  /** Records the message; false when it was already processed (the runtime refuses it). */
  admit(msg: CompiledMessage, recentBlockhash: Buffer): boolean {
    const key = recentBlockhash.toString('hex');
    let seen = this.byBlockhash.get(key);
    if (!seen) this.byBlockhash.set(key, (seen = new Set()));
    const digest = messageDigest(msg, recentBlockhash);
    if (seen.has(digest)) return false;
    seen.add(digest);
    return true;
  }

  /** The blockhash is too old to be used: its transactions can no longer be replayed, nor remembered. */
  forget(recentBlockhash: Buffer): void {
    this.byBlockhash.delete(recentBlockhash.toString('hex'));
  }
}
