// stream.Stream's ListCursors and DeleteCursor (issue 23 item 2): the durable cursors of the live layer's
// store (api/live/cursor-store.ts), which every api replica on the same Kafka shares; geyser.Geyser streams
// name theirs with `x-slotstream-cursor` and are listed and deleted here too (Yellowstone's service has no
// place for such calls). Errors: INVALID_ARGUMENT naming `name`; UNAVAILABLE when Kafka cannot be read.
import * as grpc from '@grpc/grpc-js';
import type { DeleteCursorRequest, DeleteCursorResponse, ListCursorsRequest, ListCursorsResponse } from '../../../proto/gen/stream.js';
import { cursorNameError } from '../../../schemas/cursor-record.js';
import type { CursorStore } from '../../live/index.js';

type Unary<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>) => void;

const unavailable = (err: unknown): Partial<grpc.StatusObject> => ({
  code: grpc.status.UNAVAILABLE,
  details: `cursors cannot be read: ${(err as Error).message}`,
});

export function listCursors(store: CursorStore): Unary<ListCursorsRequest, ListCursorsResponse> {
  return (call, cb) => {
    store.list(call.request.prefix).then(
      (all) => cb(null, { cursors: all.map((c) => ({ name: c.name, slot: c.slot, updatedAtMs: BigInt(c.updatedAtMs) })) }),
      (err: unknown) => cb(unavailable(err)),
    );
  };
}

export function deleteCursor(store: CursorStore): Unary<DeleteCursorRequest, DeleteCursorResponse> {
  return (call, cb) => {
    const why = cursorNameError(call.request.name);
    if (why !== undefined) {
      cb({ code: grpc.status.INVALID_ARGUMENT, details: `name: ${why}` });
      return;
    }
    store.delete(call.request.name).then(
      (deleted) => cb(null, { deleted }),
      (err: unknown) => cb(unavailable(err)),
    );
  };
}
