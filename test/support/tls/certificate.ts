// Certificates for the TLS tests, made by the openssl CLI (node:crypto cannot make X.509): for each, a CA of its
// own (EC P-256) and a server certificate it signs for localhost and 127.0.0.1, valid a day (rustls, the Yellowstone
// client's TLS, refuses a CA certificate served as the server's own, so the two are apart). `install` puts a pair in
// place the way a renewal does (written aside, then renamed over the served files).
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  cert: Buffer;
  /** The CA that signed it: what a client trusts. */
  ca: Buffer;
  /** SHA-256 fingerprint of the server certificate as Node's getPeerCertificate() gives it (AA:BB:...). */
  fingerprint256: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** Makes a CA, a server key and the certificate the CA signs for it, in `dir` under `name`.*. */
export function makeCertificate(dir: string, name: string): TestCertificate {
  const f = (ext: string): string => join(dir, `${name}.${ext}`);
  const run = (args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  run(['req', '-x509', ...EC, '-days', '1', '-subj', `/CN=slotstream test CA ${name}`, '-keyout', f('ca.key'), '-out', f('ca.crt')]);
  run(['req', ...EC, '-subj', '/CN=localhost', '-keyout', f('key'), '-out', f('csr')]);
  writeFileSync(
    f('ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
  );
  run([
    'x509',
    '-req',
    '-in',
    f('csr'),
    '-CA',
    f('ca.crt'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    f('ext'),
    '-out',
    f('crt'),
  ]);
  const cert = readFileSync(f('crt'));
  return {
    certFile: f('crt'),
    keyFile: f('key'),
    cert,
    ca: readFileSync(f('ca.crt')),
    fingerprint256: new X509Certificate(cert).fingerprint256,
  };
}

/** Puts `c` in place of the files a server reads (`served`), each by rename. */
export function install(c: TestCertificate, served: { certFile: string; keyFile: string }): void {
  const tmpCert = `${served.certFile}.new`;
  const tmpKey = `${served.keyFile}.new`;
  execFileSync('cp', [c.certFile, tmpCert]);
  execFileSync('cp', [c.keyFile, tmpKey]);
  renameSync(tmpKey, served.keyFile);
  renameSync(tmpCert, served.certFile);
}
