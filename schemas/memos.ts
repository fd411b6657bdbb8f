// A transaction's memos as Agave's signature lists show them (getSignaturesForAddress `memo`): stored so by the
// projector, and made so by the JSON-RPC head cache from the record, which must agree byte for byte.

/** Agave's memo form: `[<byte length>] <text>` per memo, joined by `; `; null without memos. */
export function formatMemos(memos: readonly string[]): string | null {
  if (memos.length === 0) return null;
  return memos.map((m) => `[${Buffer.byteLength(m, 'utf8')}] ${m}`).join('; ');
}
