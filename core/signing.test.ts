import { createPrivateKey, createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  certificateStatusUrl,
  fetchCertificateStatus,
  generateSigningKeyPair,
  jwksOf,
  KeyProblem,
  keySourceFromText,
  keySourceFromUrl,
  type ReportStatement,
  signingKeyFromPem,
  signStatement,
  statedSigner,
  statementOf,
  statementProblem,
  verifyStatement,
} from './signing.ts';
import { sealed } from './integrity.ts';
import { loadFixture } from './testSupport/resultsFixtures.ts';

const results = sealed(loadFixture('conformant'));
const statement: ReportStatement = statementOf(
  results,
  { 'report.html': 'ab'.repeat(32) },
  { signer: 'Operator Ltd', signedAt: '2026-01-02T03:04:05.000Z', certificate: 'C-1' },
);

describe('signing keys', () => {
  it('generates an Ed25519 pair whose default kid is the thumbprint, read back from the PEM alone', async () => {
    const pair = await generateSigningKeyPair();
    expect(pair.privatePem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(pair.jwks.keys).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: pair.kid, alg: 'EdDSA', use: 'sig' },
    ]);
    expect(pair.kid).toMatch(/^[\w-]{43}$/);
    const key = await signingKeyFromPem(pair.privatePem);
    expect(key.kid).toBe(pair.kid);
    expect(key.publicJwk).toEqual(pair.jwks.keys[0]);
    expect(jwksOf([key])).toEqual(pair.jwks);
  });

  it('keeps a chosen kid in a line before the PEM, which a PEM reader ignores', async () => {
    const pair = await generateSigningKeyPair('operator-2026');
    expect(pair.privatePem.split('\n')[0]).toBe('kid: operator-2026');
    expect(createPrivateKey(pair.privatePem).asymmetricKeyType).toBe('ed25519');
    expect((await signingKeyFromPem(pair.privatePem)).kid).toBe('operator-2026');
    expect((await signingKeyFromPem(pair.privatePem, 'other')).kid).toBe('other');
  });

  it('refuses a kid that is not a plain word, and a key that is not an Ed25519 private key', async () => {
    await expect(generateSigningKeyPair('a b')).rejects.toThrow(KeyProblem);
    await expect(signingKeyFromPem('not a key')).rejects.toThrow(
      'Expected an Ed25519 private key in PEM (PKCS#8), received something else',
    );
    const { generateKeyPairSync } = await import('node:crypto');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    await expect(signingKeyFromPem(rsa.toString())).rejects.toThrow(
      'Expected an Ed25519 private key, received a rsa key',
    );
  });
});

describe('a signed statement', () => {
  it('states the sealed digest, the run facts and the signer; the default run id is the digest', () => {
    expect(statement).toMatchObject({
      statement: 'conformance-report/1',
      resultsDigest: { algorithm: 'sha256', canonicalization: 'json-sorted-keys', digest: results.integrity?.digest },
      suite: results.suite,
      target: results.target,
      party: 'server',
      verdict: results.verdict,
      startedAt: results.startedAt,
      runId: `sha256:${results.integrity?.digest}`,
      signer: 'Operator Ltd',
      certificate: 'C-1',
    });
    const { integrity: _none, ...unsealed } = results;
    expect(() => statementOf(unsealed, {}, { signer: 'x' })).toThrow('only once results.json is sealed');
  });

  it('verifies with the JWK, the JWKS or the PEM of its key, and names its kid', async () => {
    const pair = await generateSigningKeyPair('k1');
    const key = await signingKeyFromPem(pair.privatePem);
    const jws = await signStatement(statement, key);
    const pub = createPublicKey(key.key).export({ type: 'spki', format: 'pem' }).toString();
    for (const text of [JSON.stringify(pair.jwks), JSON.stringify(pair.jwks.keys[0]), pub, pair.privatePem]) {
      const check = await verifyStatement(jws, await keySourceFromText(text, 'key-file'));
      expect(check.state).toBe('verified');
      if (check.state === 'verified') {
        expect(check.header).toMatchObject({ alg: 'EdDSA', kid: 'k1', typ: 'conformance-report+jws' });
        expect(check.statement).toEqual(statement);
      }
    }
  });

  it('is an unknown signer for another key, a key set without its kid, and a changed payload', async () => {
    const mine = await signingKeyFromPem((await generateSigningKeyPair('k1')).privatePem);
    const other = await generateSigningKeyPair('k1');
    const jws = await signStatement(statement, mine);
    const sameKid = await verifyStatement(jws, await keySourceFromText(JSON.stringify(other.jwks), 'other'));
    expect(sameKid).toMatchObject({ state: 'unknown-signer', kid: 'k1' });
    const elsewhere = await generateSigningKeyPair('k2');
    expect(await verifyStatement(jws, await keySourceFromText(JSON.stringify(elsewhere.jwks), 'k2'))).toMatchObject({
      state: 'unknown-signer',
      reason: 'no key with kid k1 in the key set',
    });
    const [h, p, s] = jws.split('.');
    const forged = Buffer.from(JSON.stringify({ ...statement, verdict: 'conformant', signer: 'Mallory' })).toString(
      'base64url',
    );
    expect(p).not.toBe(forged);
    const own = await keySourceFromText(JSON.stringify(jwksOf([mine])), 'mine');
    expect((await verifyStatement(`${h}.${forged}.${s}`, own)).state).toBe('unknown-signer');
  });

  it('is malformed when it is no JWS, another algorithm or no statement', async () => {
    const key = await signingKeyFromPem((await generateSigningKeyPair()).privatePem);
    const own = await keySourceFromText(JSON.stringify(jwksOf([key])), 'mine');
    expect(await verifyStatement('hello', own)).toMatchObject({ state: 'malformed' });
    const hs = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.e30.c2ln`;
    expect(await verifyStatement(hs, own)).toMatchObject({
      state: 'malformed',
      reason: 'expected alg EdDSA, received HS256',
    });
    expect(statementProblem({ ...statement, files: { '../results.json': 'x' } })).toMatch(/expected a file name/);
    expect(statementProblem({ ...statement, signer: 3 })).toBe('expected "signer" to be a string');
    expect(statementProblem(statement)).toBeUndefined();
  });
});

describe('key files and key sets', () => {
  it('gives one line for what is no public key', async () => {
    await expect(keySourceFromText('{}', 'f.json')).rejects.toThrow(
      'f.json is not a key: expected a JWK, a JWKS or a PEM file',
    );
    await expect(
      keySourceFromText('-----BEGIN PUBLIC KEY-----\nxx\n-----END PUBLIC KEY-----', 'f.pem'),
    ).rejects.toThrow('f.pem is not a public key: its PEM cannot be read');
    const pair = await generateSigningKeyPair();
    const priv = createPrivateKey(pair.privatePem).export({ format: 'jwk' });
    await expect(keySourceFromText(JSON.stringify(priv), 'p.json')).rejects.toThrow('holds a private JWK');
    await expect(keySourceFromUrl('ftp://example.test/jwks.json')).rejects.toThrow(
      'expected an http or https URL, received ftp:',
    );
  });

  it('places the certificate status beside the key set of the service', () => {
    expect(certificateStatusUrl(new URL('https://ca.test/svc/.well-known/jwks.json'), 'C 1').href).toBe(
      'https://ca.test/svc/certificates/C%201.json',
    );
    expect(certificateStatusUrl(new URL('https://ca.test/keys.json'), 'C-1').href).toBe(
      'https://ca.test/certificates/C-1.json',
    );
  });

  it('reads a certificate status: superseded names its successor only as a plain id', async () => {
    const answers: Record<string, unknown> = {
      '/certificates/C-1.json': { status: 'superseded', supersededBy: 'C-2', supersededAt: '2026-02-01T00:00:00.000Z' },
      '/certificates/C-3.json': { status: 'superseded', supersededBy: 'C-4\u001b[31m red' },
      '/certificates/C-5.json': { status: 'superseded' },
      '/certificates/C-6.json': { status: 'valid', supersededBy: 'C-7' },
      '/certificates/C-8.json': { status: 'replaced' },
    };
    const server = createServer((req, res) => {
      const answer = answers[req.url ?? ''];
      if (answer === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const status = (id: string) => fetchCertificateStatus(new URL(`${base}/certificates/${id}.json`));
    try {
      expect(await status('C-1')).toEqual({ status: 'superseded', supersededBy: 'C-2' });
      expect(await status('C-3')).toEqual({ status: 'superseded' });
      expect(await status('C-5')).toEqual({ status: 'superseded' });
      expect(await status('C-6')).toEqual({ status: 'valid' });
      expect(await status('C-8')).toEqual({
        problem: 'expected a status of valid, revoked, superseded or expired, received "replaced"',
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads the signer the results state, and nothing from a malformed one', () => {
    expect(statedSigner(results)).toBeUndefined();
    const stated = {
      ...results,
      signedBy: { name: 'Operator Ltd', kid: 'k1', jwks: 'https://ca.test/.well-known/jwks.json' },
    };
    expect(statedSigner(stated)).toEqual(stated.signedBy);
    expect(statedSigner({ ...results, signedBy: { name: 'x' } } as typeof results)).toBeUndefined();
  });
});
