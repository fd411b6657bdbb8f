// The JSON-RPC benches' server: JsonRpcServer.open over a bench's views with the options every one of them uses (a
// loopback port, 50 KiB bodies, the views at most 150 slots behind the given tip), plus what a bench sets itself.
import { JsonRpcServer, type JsonRpcOptions } from '../../api/jsonrpc/server.js';
import type { ClickHouseClient } from '../../platform/clickhouse.js';
import { silentLogger } from '../../platform/log.js';

export interface BenchRpc extends JsonRpcServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
}

export async function startBenchRpc(
  ch: ClickHouseClient,
  database: string,
  tipSlot: number | bigint,
  extra: Partial<JsonRpcOptions> = {},
): Promise<BenchRpc> {
  const tip = BigInt(tipSlot);
  const rpc = await JsonRpcServer.open({
    ch,
    database,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 50 * 1024,
    maxBatch: 100,
    maxSlotLag: 150,
    chainTip: () => tip,
    log: silentLogger,
    ...extra,
  });
  return Object.assign(rpc, { url: `http://127.0.0.1:${rpc.port}/` });
}
