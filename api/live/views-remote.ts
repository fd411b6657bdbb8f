// StreamViews from the engine process's internal endpoint (views-endpoint.ts): what a stream process uses when it
// opens no ClickHouse (issue 33, item 1). Each call is one POST; a failed call rejects with the engine's message,
// which the caller treats as it treats a failed ClickHouse query (a replay scans, a snapshot fails UNAVAILABLE, a
// signature look-up leaves the live path to notify).
import type { LogStart, SlotOffsetRow, SnapshotCandidates, StreamViews, ViewsCommitment, ViewsSignatureStatus } from './stream-views.js';

export class ViewsCallError extends Error {
  override name = 'ViewsCallError';
}

/** A failed call's error, with the engine's message (its JSON `error`, or the text as it is). */
async function callError(call: string, res: Response): Promise<ViewsCallError> {
  const text = await res.text().catch(() => '');
  let message = text;
  try {
    message = (JSON.parse(text) as { error?: string }).error ?? text;
  } catch {
    // not JSON: the text as it is
  }
  return new ViewsCallError(`views endpoint ${call}: HTTP ${res.status}: ${message}`);
}

/** `url`: the endpoint (http://host:port); `tag` names this process in the engine's per-client admission. */
export function remoteViews(o: { url: string; token?: string; tag: string }): StreamViews {
  const base = o.url.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;

  async function post(call: string, payload: unknown, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(`${base}/${call}`, { method: 'POST', headers, body: JSON.stringify(payload), signal });
    } catch (err) {
      throw new ViewsCallError(`views endpoint ${base} unreachable (${call}): ${(err as Error).message}`, { cause: err });
    }
    if (!res.ok) throw await callError(call, res);
    return res;
  }
  const call = async <T>(name: string, payload: unknown, signal?: AbortSignal): Promise<T> =>
    (await (await post(name, payload, signal)).json()) as T;
  const slotOrNone = (s: string | null): bigint | undefined => (s === null ? undefined : BigInt(s));

  return {
    async replayOffsets(topics, fromSlot): Promise<SlotOffsetRow[]> {
      return (await call<{ rows: SlotOffsetRow[] }>('replayOffsets', { topics, fromSlot: fromSlot.toString() })).rows;
    },
    async firstAvailable(starts: readonly LogStart[]) {
      const payload = { starts: starts.map((s) => ({ topic: s.topic, partition: s.partition, low: s.low.toString() })) };
      return slotOrNone((await call<{ slot: string | null }>('firstAvailable', payload)).slot);
    },
    async head(commitment: ViewsCommitment) {
      return slotOrNone((await call<{ slot: string | null }>('head', { commitment })).slot);
    },
    async *accountSnapshot(candidates: SnapshotCandidates, slot: bigint) {
      const abort = new AbortController();
      try {
        const res = await post('accountSnapshot', { candidates, slot: slot.toString() }, abort.signal);
        if (res.body === null) return;
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        }
      } finally {
        abort.abort(); // stopped early: the engine's read is cancelled with the request
      }
    },
    async signatureStatus(signature, client, signal): Promise<ViewsSignatureStatus | undefined> {
      const r = await call<{ status: { slot: string; err: string | null; level: ViewsCommitment } | null }>(
        'signatureStatus',
        { signature, client: `${o.tag}/${client}` },
        signal,
      );
      return r.status === null ? undefined : { slot: BigInt(r.status.slot), err: r.status.err, level: r.status.level };
    },
  };
}
