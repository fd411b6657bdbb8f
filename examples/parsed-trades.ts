// pump.fun and PumpSwap trades from SubscribeParsed: mint, side, SOL amount and price, read from the programs'
// own events (pump.fun's TradeEvent, PumpSwap's BuyEvent/SellEvent), top-level or routed. With `npm start`
// running: `npx tsx examples/parsed-trades.ts [host:port]` (from the repository's folder).
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import bs58 from 'bs58';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- proto-loader's messages are untyped
type Msg = any;
const proto = protoLoader.loadSync('proto/stream.proto', { keepCase: true, longs: String, oneofs: true });
const { stream } = grpc.loadPackageDefinition(proto) as Msg;
const client = new stream.Stream(process.argv[2] ?? '127.0.0.1:10000', grpc.credentials.createInsecure());
const call = client.SubscribeParsed();
call.write({ event_kinds: ['TradeEvent', 'BuyEvent', 'SellEvent'] }); // only transactions with a trade

const sol = (lamports: string): number => Number(lamports) / 1e9;
const tokens = (units: string): number => Number(units) / 1e6; // pump.fun coins have 6 decimals
call.on('data', (u: Msg) => {
  for (const e of u.events) {
    if (e.event_oneof === 'trade') {
      const t = e.trade;
      const price = sol(t.sol_amount) / tokens(t.token_amount);
      console.log(`pump.fun ${t.is_buy ? 'buy ' : 'sell'} mint=${bs58.encode(t.mint)} sol=${sol(t.sol_amount)} price=${price}`);
    } else if (e.event_oneof === 'amm_buy' || e.event_oneof === 'amm_sell') {
      const buy = e.event_oneof === 'amm_buy';
      const t = e[e.event_oneof];
      // PumpSwap's event names the pool; the coin is the base mint beside it in the trade's accounts: 4th of a
      // plain trade (the pool 1st), two before the pool in a multi_hop_swap hop ([base_mint, quote_mint, pool, ...]).
      const ix = u.instructions.find((x: Msg) => x.program === 'pump_amm' && x.accounts.some((a: Buffer) => a.equals(t.pool)));
      const at = ix ? ix.accounts.findIndex((a: Buffer) => a.equals(t.pool)) : -1;
      const [quote, base] = buy ? [t.quote_amount_in, t.base_amount_out] : [t.quote_amount_out, t.base_amount_in];
      const mint = at < 0 ? '?' : bs58.encode(ix.accounts[at === 0 ? 3 : at - 2]);
      console.log(`PumpSwap ${buy ? 'buy ' : 'sell'} mint=${mint} sol=${sol(quote)} price=${sol(quote) / tokens(base)}`);
    }
  }
});
call.on('error', (e: grpc.ServiceError) => console.error(`stream ended: ${e.details}`));
