// The gRPC host on its own (no live layer, no Kafka): a probe service on it (test/support/grpc/probe-service.ts)
// shows the one token check (a server interceptor) guarding every method of the services, unary and streaming,
// before their handlers run; health, reflection and unknown methods answering as they did before the check
// became an interceptor; and Outbound's batched writer still finding grpc-js's base call under the interceptor.
import { createRequire } from 'node:module';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../platform/log.js';
import { probeClient, ProbeService, PROBE_SERVICE_NAME } from '../../test/support/grpc/probe-service.js';
import { waitFor } from '../../test/support/harness/kafka.js';
import { startGrpc, type GrpcServer } from './server.js';

const require = createRequire(import.meta.url);
const TOKEN = 'host-secret';

// proto-loader gives untyped objects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Msg = any;

function metadata(...tokens: string[]): grpc.Metadata {
  const m = new grpc.Metadata();
  for (const t of tokens) m.add('x-token', t);
  return m;
}

function echo(c: Msg, body: string, md: grpc.Metadata): Promise<{ ok: string } | { code: number; details: string }> {
  return new Promise((resolve) => {
    c.echo(Buffer.from(body), md, (err: grpc.ServiceError | null, res: Buffer) =>
      resolve(err ? { code: err.code, details: err.details } : { ok: res.toString() }),
    );
  });
}

/** Opens Watch, sends `body`, half-closes, and collects the replies and the final status. */
function watch(c: Msg, body: string, md: grpc.Metadata): Promise<{ replies: string[]; code: number; details: string; headers: boolean }> {
  return new Promise((resolve) => {
    const replies: string[] = [];
    let headers = false;
    const call = c.watch(md);
    call.on('metadata', () => (headers = true));
    call.on('data', (b: Buffer) => replies.push(b.toString()));
    call.on('error', () => undefined);
    call.on('status', (s: grpc.StatusObject) => resolve({ replies, code: s.code, details: s.details, headers }));
    call.write(Buffer.from(body));
    call.end();
  });
}

describe('the gRPC host: one token check for every service method', () => {
  const guarded = new ProbeService();
  const open = new ProbeService();
  let withToken: GrpcServer;
  let withoutToken: GrpcServer;
  let c: Msg;

  beforeAll(async () => {
    withToken = await startGrpc({ services: [guarded], host: '127.0.0.1', port: 0, authToken: TOKEN, log: silentLogger });
    withoutToken = await startGrpc({ services: [open], host: '127.0.0.1', port: 0, log: silentLogger });
    c = probeClient(withToken.port);
  });

  afterAll(async () => {
    c?.close();
    await withToken?.close();
    await withoutToken?.close();
  });

  it('refuses a unary call without the token, with a wrong one or with two, before its handler runs', async () => {
    const refused = { code: grpc.status.UNAUTHENTICATED, details: 'missing or invalid x-token' };
    expect(await echo(c, 'a', metadata())).toEqual(refused);
    expect(await echo(c, 'a', metadata('wrong'))).toEqual(refused);
    expect(await echo(c, 'a', metadata(TOKEN, TOKEN))).toEqual(refused);
    expect(guarded.handled).toBe(0);
    expect(await echo(c, 'a', metadata(TOKEN))).toEqual({ ok: 'a' });
    expect(guarded.handled).toBe(1);
  });

  it('refuses a stream without the token with UNAUTHENTICATED as its only answer; with it, replies flow through the batched writer', async () => {
    const before = guarded.handled;
    const refused = await watch(c, 'x', metadata('wrong'));
    expect(refused).toEqual({ replies: [], code: grpc.status.UNAUTHENTICATED, details: 'missing or invalid x-token', headers: false });
    expect(guarded.handled).toBe(before);

    const ok = await watch(c, 'x', metadata(TOKEN));
    expect(ok).toMatchObject({ replies: ['x', '>x'], code: grpc.status.OK, headers: true });
    // Under the interceptor, Outbound still writes its frames straight to the HTTP/2 stream (bench/README.md's figures).
    expect(guarded.batched).toEqual([true]);
  });

  it('leaves a server without a token open, and its streams batched too', async () => {
    const oc = probeClient(withoutToken.port);
    try {
      expect(await echo(oc, 'b', metadata())).toEqual({ ok: 'b' });
      expect(await watch(oc, 'y', metadata())).toMatchObject({ replies: ['y', '>y'], code: grpc.status.OK });
      expect(open.batched).toEqual([true]);
    } finally {
      oc.close();
    }
  });

  it('keeps health and reflection open with a token configured, and unknown methods UNIMPLEMENTED', async () => {
    const healthPkg = grpc.loadPackageDefinition(
      protoLoader.loadSync(require.resolve('grpc-health-check/proto/health/v1/health.proto'), { enums: String }),
    ) as Msg;
    const hc = new healthPkg.grpc.health.v1.Health(`127.0.0.1:${withToken.port}`, grpc.credentials.createInsecure());
    const reflPkg = grpc.loadPackageDefinition(
      protoLoader.loadSync(require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto'), {}),
    ) as Msg;
    const rc = new reflPkg.grpc.reflection.v1.ServerReflection(`127.0.0.1:${withToken.port}`, grpc.credentials.createInsecure());
    try {
      for (const service of ['', PROBE_SERVICE_NAME]) {
        const res = await new Promise<Msg>((resolve, reject) =>
          hc.check({ service }, (e: Error | null, r: Msg) => (e ? reject(e) : resolve(r))),
        );
        expect(res.status).toBe('SERVING');
      }
      const listed = await new Promise<Msg>((resolve, reject) => {
        const call = rc.serverReflectionInfo();
        call.on('data', (m: Msg) => {
          resolve(m);
          call.end();
        });
        call.on('error', reject);
        call.write({ list_services: '' });
      });
      expect(listed.error_response).toBeFalsy();

      const unknown = await new Promise<grpc.ServiceError>((resolve) =>
        c.makeUnaryRequest(
          `/${PROBE_SERVICE_NAME}/Missing`,
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.alloc(0),
          metadata(),
          (err: grpc.ServiceError) => resolve(err),
        ),
      );
      expect(unknown.code).toBe(grpc.status.UNIMPLEMENTED);
    } finally {
      hc.close();
      rc.close();
    }
  });

  it('ends the open streams on close', async () => {
    const s = new ProbeService();
    const server = await startGrpc({ services: [s], host: '127.0.0.1', port: 0, authToken: TOKEN, log: silentLogger });
    const oc = probeClient(server.port);
    const call = oc.watch?.(metadata(TOKEN)) as grpc.ClientDuplexStream<Buffer, Buffer>;
    const status = new Promise<number>((resolve) => call.on('status', (st: grpc.StatusObject) => resolve(st.code)));
    call.on('error', () => undefined);
    await waitFor(() => s.handled === 1, { what: 'the stream to reach its handler' });
    await server.close();
    expect(await status).toBe(grpc.status.CANCELLED);
    oc.close();
  });
});
