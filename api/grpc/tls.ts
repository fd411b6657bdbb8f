// TLS for the gRPC host (issue 36). grpc-js's ServerCredentials.createSsl takes a fixed pair; renewing it would
// mean a new bind. grpc-js 1.14's experimental certificate providers update a bound server instead: the server
// watches its credentials and calls setSecureContext on its HTTP/2 server with each identity update
// (server-credentials.ts CertificateProviderServerCredentials, server.ts createHttp2Server). This adapter makes the
// process's one TlsSource (platform/tls.ts) such a provider, so a renewed certificate is served to new connections
// without a restart; open connections keep theirs.
import { experimental, ServerCredentials } from '@grpc/grpc-js';
import type { TlsSource } from '../../platform/tls.js';

type IdentityListener = experimental.IdentityCertificateUpdateListener;

class TlsSourceProvider implements experimental.CertificateProvider {
  private readonly listeners = new Map<IdentityListener, () => void>();

  constructor(private readonly source: TlsSource) {}

  addCaCertificateListener(): void {
    // No client certificates: the host asks for none.
  }

  removeCaCertificateListener(): void {}

  addIdentityCertificateListener(listener: IdentityListener): void {
    // Delivered on the next tick, as grpc-js's own file watcher does: the credentials add their server's watcher
    // only after asking the provider, so an answer given at once would reach no server.
    process.nextTick(() => {
      if (!this.listeners.has(listener)) return;
      const pair = this.source.current();
      listener({ certificate: pair.cert, privateKey: pair.key });
    });
    this.listeners.set(
      listener,
      this.source.onChange((p) => listener({ certificate: p.cert, privateKey: p.key })),
    );
  }

  removeIdentityCertificateListener(listener: IdentityListener): void {
    this.listeners.get(listener)?.();
    this.listeners.delete(listener);
  }
}

/** Server credentials: TLS from `source` (renewals served without a rebind), or plaintext without one. */
export function serverCredentials(source: TlsSource | undefined): ServerCredentials {
  if (source === undefined) return ServerCredentials.createInsecure();
  // The first argument is the identity provider (grpc-js names its parameters the other way round).
  return experimental.createCertificateProviderServerCredentials(new TlsSourceProvider(source), null, false);
}
