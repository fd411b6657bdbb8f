// Memo texts, as the event model keeps them: the data of every top-level memo-program instruction.
import bs58 from 'bs58';

const MEMO_PROGRAMS = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', // memo v2
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo', // memo v1
].map((k) => Buffer.from(bs58.decode(k)));

export function memosOf(keys: readonly Uint8Array[], instructions: readonly { programIdIndex: number; data: Uint8Array }[]): string[] {
  const out: string[] = [];
  for (const ix of instructions) {
    const program = keys[ix.programIdIndex];
    if (program !== undefined && MEMO_PROGRAMS.some((m) => m.equals(program))) out.push(Buffer.from(ix.data).toString('utf8'));
  }
  return out;
}
