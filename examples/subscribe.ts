// A runnable gRPC client for slotstream, written the way a third-party client would be: it loads
// proto/stream.proto at run time with @grpc/proto-loader (no generated code).
//
//   npm start                                  # in another terminal: the whole service on 127.0.0.1:10000
//   npx tsx examples/subscribe.ts              # pump.fun transactions and bonding-curve accounts, live
//   npx tsx examples/subscribe.ts --from-slot 100 --commitment CONFIRMED --parsed --count 20
//
// Options: --address host:port (default 127.0.0.1:10000, or SLOTSTREAM_GRPC), --token T (sent as
// x-token; or SLOTSTREAM_TOKEN), --from-slot N (replay from slot N, then live), --commitment
// PROCESSED|CONFIRMED|FINALIZED, --parsed (SubscribeParsed instead of Subscribe), --count N (stop after N
// updates; default: run until Ctrl-C).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import bs58 from 'bs58';

const PUMP_PROGRAM = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
const PROTO = fileURLToPath(new URL('../proto/stream.proto', import.meta.url));

const { values: opts } = parseArgs({
  options: {
    address: { type: 'string', default: process.env.SLOTSTREAM_GRPC ?? '127.0.0.1:10000' },
    token: { type: 'string', default: process.env.SLOTSTREAM_TOKEN ?? '' },
    'from-slot': { type: 'string' },
    commitment: { type: 'string', default: 'PROCESSED' },
    parsed: { type: 'boolean', default: false },
    count: { type: 'string' },
  },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Msg = any;

const definition = protoLoader.loadSync(PROTO, {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
});
const pkg = grpc.loadPackageDefinition(definition) as Msg;
const client = new pkg.stream.Stream(opts.address, grpc.credentials.createInsecure());
const metadata = new grpc.Metadata();
if (opts.token) metadata.set('x-token', opts.token);

const limit = opts.count === undefined ? Infinity : Number(opts.count);
let seen = 0;
const b58 = (b: Buffer | null | undefined): string => (b && b.length > 0 ? bs58.encode(b) : '-');

function done(): void {
  call.cancel();
  client.close();
}

function show(line: string): void {
  console.log(line);
  if (++seen >= limit) done();
}

let call: grpc.ClientDuplexStream<Msg, Msg>;
if (opts.parsed) {
  call = client.SubscribeParsed(metadata);
  call.on('data', (u: Msg) => {
    const ixs = u.instructions.map((i: Msg) => `${i.instruction_oneof}${JSON.stringify(i[i.instruction_oneof])}`).join(' ');
    const curve = u.account ? ` curve=${b58(u.account.account.pubkey)} lamports=${u.account.account.lamports}` : '';
    show(`slot=${u.slot} sig=${b58(u.signature)} ${ixs}${curve}`);
  });
} else {
  call = client.Subscribe(metadata);
  call.on('data', (u: Msg) => {
    switch (u.update_oneof) {
      case 'transaction': {
        const t = u.transaction.transaction;
        show(`[${u.filters.join(',')}] tx slot=${u.transaction.slot} sig=${b58(t.signature)} keys=${t.account_keys.length}`);
        break;
      }
      case 'account': {
        const a = u.account.account;
        show(`[${u.filters.join(',')}] account slot=${u.account.slot} ${b58(a.pubkey)} lamports=${a.lamports} data=${a.data.length}B`);
        break;
      }
      case 'ping':
        call.write({ ping: { id: 1 } }); // optional: the server only wants to know the connection lives
        break;
      case 'pong':
        break;
    }
  });
  const request: Msg = {
    transactions: { pump: { account_include: [PUMP_PROGRAM], vote: false } },
    // Bonding curves are pump.fun's 150-byte accounts (it also owns users' volume accumulators, 106 bytes).
    accounts: { curves: { owner: [PUMP_PROGRAM], filters: [{ datasize: '150' }] } },
    commitment: opts.commitment,
    accounts_data_slice: [{ offset: 0, length: 64 }],
  };
  if (opts['from-slot'] !== undefined) request.from_slot = opts['from-slot'];
  call.write(request);
}

call.on('error', (e: grpc.ServiceError) => {
  if (e.code === grpc.status.CANCELLED) return;
  console.error(`stream ended: ${grpc.status[e.code]} ${e.details}`);
  process.exitCode = 1;
});
process.on('SIGINT', done);
