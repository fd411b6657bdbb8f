// The REAL @triton-one/yellowstone-grpc client (its napi Client, as applications use it) against a local
// slotstream: connect over plaintext, record a Subscribe stream, and send requests that are known to be
// applied (a ping after a request is answered only after the request was handled, in order).
import yellowstone, {
  type ChannelOptions,
  type ClientDuplexStream,
  type SubscribeRequest,
  type SubscribeUpdate,
} from '@triton-one/yellowstone-grpc';
import { waitFor } from '../harness/kafka.js';

// The package's types describe its CommonJS build (the client as `exports.default`); an ESM import loads its
// ESM build, whose default export is the client itself. Both shapes are accepted.
export type GeyserClient = InstanceType<typeof yellowstone.default>;
const ClientCtor: typeof yellowstone.default =
  (yellowstone as unknown as { default?: typeof yellowstone.default }).default ?? (yellowstone as unknown as typeof yellowstone.default);

export async function connectGeyser(port: number, token?: string, channel?: ChannelOptions): Promise<GeyserClient> {
  const client = new ClientCtor(`http://127.0.0.1:${port}`, token, channel);
  await client.connect();
  return client;
}

/** A SubscribeRequest with every map and list present (the client's encoder expects them). */
export function geyserRequest(partial: Partial<SubscribeRequest> = {}): SubscribeRequest {
  return {
    accounts: {},
    slots: {},
    transactions: {},
    transactionsStatus: {},
    blocks: {},
    blocksMeta: {},
    entry: {},
    accountsDataSlice: [],
    ...partial,
  };
}

/**
 * The client's errors say only which call failed; the gRPC status (tonic's description of the code and
 * the server's message) is in the `cause` chain. All of it as one text.
 */
export function errorText(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e; c instanceof Error; c = c.cause) parts.push(c.message);
  // The status message arrives Debug-formatted (quotes escaped).
  return parts.join(' <- ').replace(/\\"/g, '"');
}

export type UpdateKind = 'account' | 'slot' | 'transaction' | 'transactionStatus' | 'block' | 'ping' | 'pong' | 'blockMeta' | 'entry';
const KINDS: readonly UpdateKind[] = ['account', 'slot', 'transaction', 'transactionStatus', 'block', 'ping', 'pong', 'blockMeta', 'entry'];

export function kindOf(u: SubscribeUpdate): UpdateKind | undefined {
  return KINDS.find((k) => u[k] !== undefined);
}

export class GeyserRecorder {
  readonly updates: SubscribeUpdate[] = [];
  error: (Error & { code?: number; details?: string }) | undefined;
  private pingId = 1_000_000;

  private constructor(readonly stream: ClientDuplexStream) {
    stream.on('data', (u: SubscribeUpdate) => this.updates.push(u));
    stream.on('error', (e: Error) => (this.error = e));
  }

  static async open(client: GeyserClient): Promise<GeyserRecorder> {
    return new GeyserRecorder(await client.subscribe());
  }

  of<K extends UpdateKind>(kind: K): (SubscribeUpdate & { [P in K]-?: NonNullable<SubscribeUpdate[P]> })[] {
    return this.updates.filter((u) => u[kind] !== undefined) as never;
  }

  write(req: SubscribeRequest): void {
    this.stream.write(req);
  }

  /** Sends `req` and waits until the server applied it. */
  async request(req: SubscribeRequest): Promise<void> {
    this.write(req);
    await this.sync();
  }

  /** Waits until the server handled everything written before (a ping request changes no filter). */
  async sync(): Promise<void> {
    const id = this.pingId++;
    this.write(geyserRequest({ ping: { id } }));
    await waitFor(() => this.of('pong').some((u) => u.pong.id === id), { what: `pong ${id}` });
  }

  close(): void {
    this.stream.destroy();
  }
}
