/**
 * A private PKI made at test time with the machine's `openssl` (test/tls.test.ts): a CA, server
 * certificates it signs for 127.0.0.1 and localhost (one for other names, one expired), a
 * self-signed server certificate, and a client certificate with a plain and an encrypted key.
 * EC P-256 keys: each file takes milliseconds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyPair {
  cert: string;
  key: string;
}

export interface Pki {
  dir: string;
  /** The CA certificate (PEM file) that signed `server`, `wrongName`, `expired` and `client`. */
  caFile: string;
  /** Another CA, which signed nothing here. */
  otherCaFile: string;
  server: KeyPair;
  /** Signed by the CA for other.example only. */
  wrongName: KeyPair;
  /** Signed by the CA, valid in January 2020 only. */
  expired: KeyPair;
  /** Signed by itself, for 127.0.0.1 and localhost. */
  selfSigned: KeyPair;
  /** A client certificate (CN conformance-client) signed by the CA; `encryptedKey` is its key under `passphrase`. */
  client: KeyPair & { encryptedKey: string; passphrase: string };
  /** A client certificate signed by itself, which no server here trusts. */
  strangerClient: KeyPair;
}

/** Runs `openssl` in `dir` with arguments written as one line (no argument holds a space). */
function openssl(dir: string, line: string): void {
  execFileSync('openssl', line.trim().split(/\s+/), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

const EC = '-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes';
const SELF_NAMES = '-addext subjectAltName=DNS:localhost,IP:127.0.0.1';
const CA_EXTENSIONS = '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign';

/** Makes the PKI in a new temporary folder (files are paths into it). */
export function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-pki-'));
  const at = (name: string) => join(dir, name);
  openssl(dir, `req -x509 ${EC} -keyout ca.key -out ca.pem -days 2 -subj /CN=Conformance-Test-CA ${CA_EXTENSIONS}`);
  openssl(dir, `req -x509 ${EC} -keyout other-ca.key -out other-ca.pem -days 2 -subj /CN=Another-CA ${CA_EXTENSIONS}`);
  writeFileSync(at('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  writeFileSync(at('wrong.ext'), 'subjectAltName=DNS:other.example\nextendedKeyUsage=serverAuth\n');
  writeFileSync(at('client.ext'), 'extendedKeyUsage=clientAuth\n');
  const signed = (name: string, cn: string, ext: string) => {
    openssl(dir, `req ${EC} -keyout ${name}.key -out ${name}.csr -subj /CN=${cn}`);
    openssl(
      dir,
      `x509 -req -in ${name}.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out ${name}.pem -days 2 -extfile ${ext}`,
    );
  };
  signed('server', 'localhost', 'server.ext');
  signed('wrong-name', 'other.example', 'wrong.ext');
  signed('client', 'conformance-client', 'client.ext');
  // An expired certificate needs dates of its own: `openssl ca` sets them.
  writeFileSync(at('index.txt'), '');
  writeFileSync(at('serial'), '1000\n');
  const database = `database = ${at('index.txt')}\nnew_certs_dir = ${dir}\nserial = ${at('serial')}`;
  const policy = 'default_md = sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n';
  writeFileSync(at('ca.cnf'), `[ca]\ndefault_ca = test\n[test]\n${database}\n${policy}`);
  openssl(dir, `req ${EC} -keyout expired.key -out expired.csr -subj /CN=localhost`);
  openssl(
    dir,
    'ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in expired.csr -out expired.pem -notext ' +
      '-startdate 20200101000000Z -enddate 20200102000000Z -extfile server.ext',
  );
  openssl(dir, `req -x509 ${EC} -keyout self.key -out self.pem -days 2 -subj /CN=localhost ${SELF_NAMES}`);
  openssl(dir, `req -x509 ${EC} -keyout stranger.key -out stranger.pem -days 2 -subj /CN=stranger`);
  const passphrase = 'correct-horse-battery-staple';
  openssl(dir, `pkey -in client.key -aes256 -passout pass:${passphrase} -out client-encrypted.key`);
  const pair = (name: string): KeyPair => ({ cert: at(`${name}.pem`), key: at(`${name}.key`) });
  return {
    dir,
    caFile: at('ca.pem'),
    otherCaFile: at('other-ca.pem'),
    server: pair('server'),
    wrongName: pair('wrong-name'),
    expired: pair('expired'),
    selfSigned: pair('self'),
    client: { ...pair('client'), encryptedKey: at('client-encrypted.key'), passphrase },
    strangerClient: pair('stranger'),
  };
}
