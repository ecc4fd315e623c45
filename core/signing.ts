/**
 * Signed reports (issue 25): an Ed25519 key pair, the signed statement about a sealed report folder
 * (a JWS, alg EdDSA, with a `kid` header, made with `jose`), and the public keys that check it (a
 * JWK, a JWKS, a PEM file, or a JWKS URL such as a certification service's
 * `/.well-known/jwks.json`). The digest of results.json shows the files were not changed after the
 * run but anyone can recompute it; the signature shows who vouches for the folder: only the
 * holder of the private key can make it.
 *
 * The statement is made over results.json's integrity digest (core/integrity.ts), so it covers
 * everything the run judged; the derived files are covered by their own SHA-256 beside it.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import {
  CompactSign,
  calculateJwkThumbprint,
  compactVerify,
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { RunResults, SignedBy, Verdict } from './results.ts';

/** The algorithm of every signature this suite makes (Ed25519, RFC 8037). */
export const SIGNING_ALG = 'EdDSA';
/** The `typ` header of a signed report statement. */
export const STATEMENT_TYP = 'conformance-report+jws';
/** The file a signed report folder carries its signature in, and its unverified summary. */
export const SIGNATURE_JWS = 'signature.jws';
export const SIGNATURE_JSON = 'signature.json';
/** How long a key set or a certificate status may take to arrive (ms). */
export const FETCH_TIMEOUT_MS = 10_000;

export type { SignedBy } from './results.ts';

/** What a signature states about a report folder: the signed payload of signature.jws. */
export interface ReportStatement {
  /** The statement's format. */
  statement: 'conformance-report/1';
  /** results.json's integrity digest (SHA-256 of its canonical content, core/integrity.ts). */
  resultsDigest: { algorithm: 'sha256'; canonicalization: 'json-sorted-keys'; digest: string };
  /** SHA-256 (hex) of each derived file as it stands in the folder when signed. */
  files: Record<string, string>;
  suite: { name: string; version: string };
  target: string;
  party: 'server' | 'client';
  verdict: Verdict;
  /** The share of the testable MUST requirements in scope that was judged, and the minimum. */
  coverage?: { inScope: number; judged: number; minimum: number };
  startedAt: string;
  finishedAt: string;
  /** The run's id at the signer (a service's run id; by default the results digest). */
  runId: string;
  /** The signer's name. */
  signer: string;
  signedAt: string;
  /** The certificate this run backs, when one was issued. */
  certificate?: string;
  /** When that certificate expires (it may be revoked or superseded before; its status URL says). */
  certificateExpiresAt?: string;
}

/** A private key ready to sign, its key id and its public half. */
export interface SigningKey {
  key: KeyObject;
  kid: string;
  publicJwk: JWK;
}

/** A problem with a key, a key file or a key set: one line for the user (exit 2). */
export class KeyProblem extends Error {}

const KID_LINE = /^kid:\s*(\S+)\s*$/m;

/** The public JWK of an Ed25519 key object, with its kid, alg and use. */
async function publicJwkOf(key: KeyObject, kid?: string): Promise<JWK> {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const { kty, crv, x } = pub.export({ format: 'jwk' });
  const bare = { kty, crv, x } as JWK;
  return { ...bare, kid: kid ?? (await calculateJwkThumbprint(bare, 'sha256')), alg: SIGNING_ALG, use: 'sig' };
}

/**
 * A new Ed25519 key pair: the private key as PKCS#8 PEM (a `kid:` line before it when a key id
 * is chosen; RFC 7468 lets text stand before the encapsulation boundary) and the public key set.
 * The default key id is the key's RFC 7638 thumbprint, so a key read back from the PEM alone
 * names the same kid.
 */
export async function generateSigningKeyPair(
  kid?: string,
): Promise<{ privatePem: string; jwks: JSONWebKeySet; kid: string }> {
  if (kid !== undefined && !/^[\w.:-]{1,200}$/.test(kid))
    throw new KeyProblem(`Expected a key id of letters, digits, '.', ':', '_' or '-', received ${JSON.stringify(kid)}`);
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = await publicJwkOf(privateKey, kid);
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { privatePem: kid === undefined ? pem : `kid: ${kid}\n${pem}`, jwks: { keys: [jwk] }, kid: jwk.kid as string };
}

/** The signing key in a PKCS#8 PEM text (an Ed25519 private key); `kid` overrides the one it names. */
export async function signingKeyFromPem(pem: string, kid?: string): Promise<SigningKey> {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new KeyProblem('Expected an Ed25519 private key in PEM (PKCS#8), received something else');
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new KeyProblem(`Expected an Ed25519 private key, received a ${key.asymmetricKeyType ?? 'other'} key`);
  const publicJwk = await publicJwkOf(key, kid ?? KID_LINE.exec(pem.split('-----BEGIN')[0])?.[1]);
  return { key, kid: publicJwk.kid as string, publicJwk };
}

/** The public key set of some signing keys (what a service publishes at /.well-known/jwks.json). */
export const jwksOf = (keys: readonly Pick<SigningKey, 'publicJwk'>[]): JSONWebKeySet => ({
  keys: keys.map((k) => k.publicJwk),
});

/** The statement a report's results give, before the signer's part is added. */
export function statementOf(
  results: RunResults,
  files: Record<string, string>,
  signer: { signer: string; runId?: string; certificate?: string; certificateExpiresAt?: string; signedAt?: string },
): ReportStatement {
  const digest = results.integrity?.digest;
  if (digest === undefined) throw new Error('A report is signed only once results.json is sealed');
  const overall = results.coverage?.overall;
  return {
    statement: 'conformance-report/1',
    resultsDigest: { algorithm: 'sha256', canonicalization: 'json-sorted-keys', digest },
    files,
    suite: results.suite,
    target: results.target,
    party: results.party ?? 'server',
    verdict: results.verdict,
    ...(overall && results.coverage
      ? { coverage: { inScope: overall.inScope, judged: overall.judged, minimum: results.coverage.minimum } }
      : {}),
    startedAt: results.startedAt,
    finishedAt: results.finishedAt,
    runId: signer.runId ?? `sha256:${digest}`,
    signer: signer.signer,
    signedAt: signer.signedAt ?? new Date().toISOString(),
    ...(signer.certificate !== undefined ? { certificate: signer.certificate } : {}),
    ...(signer.certificate !== undefined && signer.certificateExpiresAt !== undefined
      ? { certificateExpiresAt: signer.certificateExpiresAt }
      : {}),
  };
}

/** The compact JWS of a statement, signed with the key (alg EdDSA, the key's kid). */
export async function signStatement(statement: ReportStatement, key: SigningKey): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(statement)))
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: STATEMENT_TYP })
    .sign(key.key);
}

/** Where the public keys that check a signature come from. */
export type KeySource =
  | {
      kind: 'file';
      path: string;
      resolve: (header: JWSHeaderParameters) => Promise<KeyObject | CryptoKey | Uint8Array>;
      /** The key set the file holds (a set's keys may say when they were retired), when it is one. */
      jwks?: () => JSONWebKeySet | undefined;
    }
  | { kind: 'url'; url: URL; resolve: ReturnType<typeof createRemoteJWKSet> };

/**
 * When a key of a set stopped signing (its `notAfter`, an extension member a certification
 * service publishes for its retired keys): a statement it signed later is not the service's.
 */
export function keyNotAfter(set: JSONWebKeySet | undefined, kid: string | undefined): string | undefined {
  const key = set?.keys.find((k) => k.kid === kid) as (JWK & { notAfter?: unknown }) | undefined;
  return typeof key?.notAfter === 'string' && !Number.isNaN(Date.parse(key.notAfter)) ? key.notAfter : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The public keys in a file's text: a JWK, a JWKS, or a PEM (a public key, or a private key whose
 * public half is taken). A single key checks any signature made with it, whatever kid it names;
 * a key set picks its key by the signature's kid.
 */
export async function keySourceFromText(text: string, path: string): Promise<KeySource> {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.includes('-----BEGIN')) {
    let key: KeyObject;
    try {
      key = /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(trimmed)
        ? createPublicKey(createPrivateKey(trimmed))
        : createPublicKey(trimmed);
    } catch {
      throw new KeyProblem(`${path} is not a public key: its PEM cannot be read`);
    }
    if (key.asymmetricKeyType !== 'ed25519')
      throw new KeyProblem(`${path} is not an Ed25519 key (it is a ${key.asymmetricKeyType ?? 'other'} key)`);
    return { kind: 'file', path, resolve: async () => key };
  }
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw new KeyProblem(`${path} is not a key: expected a JWK, a JWKS or a PEM file`);
  }
  if (isObject(value) && Array.isArray(value.keys)) {
    let set: ReturnType<typeof createLocalJWKSet>;
    try {
      set = createLocalJWKSet(value as unknown as JSONWebKeySet);
    } catch (e) {
      throw new KeyProblem(`${path} is not a key set: ${(e as Error).message}`);
    }
    return { kind: 'file', path, resolve: (header) => set(header), jwks: () => value as unknown as JSONWebKeySet };
  }
  if (isObject(value) && typeof value.kty === 'string') {
    if (value.d !== undefined) throw new KeyProblem(`${path} holds a private JWK: give the public key (without "d")`);
    let key: Awaited<ReturnType<typeof importJWK>>;
    try {
      key = await importJWK({ ...(value as JWK), alg: SIGNING_ALG }, SIGNING_ALG);
    } catch (e) {
      throw new KeyProblem(`${path} is not an Ed25519 public key: ${(e as Error).message}`);
    }
    return { kind: 'file', path, resolve: async () => key };
  }
  throw new KeyProblem(`${path} is not a key: expected a JWK, a JWKS or a PEM file`);
}

/** A key set at an http(s) URL (createRemoteJWKSet), fetched once now so that a problem is one line. */
export async function keySourceFromUrl(address: string): Promise<KeySource> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new KeyProblem(`--key ${address} is neither a readable file nor a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new KeyProblem(`--key ${address}: expected an http or https URL, received ${url.protocol}`);
  const set = createRemoteJWKSet(url, { timeoutDuration: FETCH_TIMEOUT_MS });
  try {
    await set.reload();
  } catch (e) {
    const why =
      e instanceof errors.JWKSTimeout
        ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s`
        : e instanceof errors.JWKSInvalid
          ? 'the answer is not a JSON Web Key Set'
          : ((e as Error & { cause?: { code?: string } }).cause?.code ?? (e as Error).message.split('\n')[0]);
    throw new KeyProblem(`cannot read the key set at ${url.href}: ${why}`);
  }
  return { kind: 'url', url, resolve: set };
}

export type SignatureCheck =
  | { state: 'verified'; header: JWSHeaderParameters; statement: ReportStatement }
  /** No key given checks it: signed by another key (or the JWS itself was changed). */
  | { state: 'unknown-signer'; kid?: string; reason: string }
  /** Not a JWS of a report statement at all. */
  | { state: 'malformed'; reason: string };

/** The statement in a JWS's payload, or why it is none. */
export function statementProblem(value: unknown): string | undefined {
  if (!isObject(value) || value.statement !== 'conformance-report/1')
    return 'expected a conformance-report/1 statement';
  if (!isObject(value.resultsDigest) || typeof value.resultsDigest.digest !== 'string')
    return 'expected a resultsDigest';
  if (!isObject(value.files)) return 'expected the files digests';
  // A file the statement names is read from the folder: a plain name, never a path.
  for (const [name, digest] of Object.entries(value.files))
    if (!/^[\w-][\w.-]*$/.test(name) || typeof digest !== 'string')
      return `expected a file name and its digest, received ${JSON.stringify(name)}`;
  for (const key of ['signer', 'signedAt', 'runId', 'target', 'verdict'] as const)
    if (typeof value[key] !== 'string') return `expected "${key}" to be a string`;
  if (value.certificate !== undefined && typeof value.certificate !== 'string')
    return 'expected "certificate" to be a string';
  if (
    value.certificateExpiresAt !== undefined &&
    (typeof value.certificateExpiresAt !== 'string' || Number.isNaN(Date.parse(value.certificateExpiresAt)))
  )
    return 'expected "certificateExpiresAt" to be a date-time';
  return undefined;
}

/** Checks a compact JWS with the given keys; never throws for what the JWS or the key says. */
export async function verifyStatement(jws: string, source: KeySource): Promise<SignatureCheck> {
  let header: JWSHeaderParameters;
  try {
    header = decodeProtectedHeader(jws.trim()) as JWSHeaderParameters;
  } catch {
    return { state: 'malformed', reason: 'signature.jws is not a compact JWS' };
  }
  if (header.alg !== SIGNING_ALG)
    return { state: 'malformed', reason: `expected alg ${SIGNING_ALG}, received ${String(header.alg)}` };
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  try {
    const { payload } = await compactVerify(jws.trim(), source.resolve, { algorithms: [SIGNING_ALG] });
    let statement: unknown;
    try {
      statement = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      return { state: 'malformed', reason: 'the signed payload is not JSON' };
    }
    const problem = statementProblem(statement);
    if (problem !== undefined) return { state: 'malformed', reason: `the signed payload: ${problem}` };
    const notAfter = keyNotAfter(source.kind === 'url' ? source.resolve.jwks() : source.jwks?.(), kid);
    const signedAt = (statement as ReportStatement).signedAt;
    if (notAfter !== undefined && !(Date.parse(signedAt) <= Date.parse(notAfter)))
      return {
        state: 'unknown-signer',
        ...(kid ? { kid } : {}),
        reason: `key ${kid} was retired at ${notAfter} and signs nothing after; this statement says it was signed at ${signedAt}`,
      };
    return { state: 'verified', header, statement: statement as ReportStatement };
  } catch (e) {
    if (e instanceof errors.JWKSNoMatchingKey)
      return {
        state: 'unknown-signer',
        ...(kid ? { kid } : {}),
        reason: `no key with kid ${kid ?? '(none)'} in the key set`,
      };
    if (e instanceof errors.JWSSignatureVerificationFailed)
      return {
        state: 'unknown-signer',
        ...(kid ? { kid } : {}),
        reason:
          'the signature does not verify with the key given (signed by another key, or signature.jws was changed)',
      };
    if (e instanceof errors.JWKSMultipleMatchingKeys)
      return { state: 'unknown-signer', ...(kid ? { kid } : {}), reason: `several keys of the set match kid ${kid}` };
    if (e instanceof errors.JOSEError) return { state: 'malformed', reason: (e as Error).message.split('\n')[0] };
    throw e;
  }
}

/** The signer the results state (set before they were sealed), when they state a well-formed one. */
export function statedSigner(results: RunResults): SignedBy | undefined {
  const v = (results as RunResults & { signedBy?: unknown }).signedBy;
  if (!isObject(v) || typeof v.name !== 'string' || typeof v.kid !== 'string') return undefined;
  return { name: v.name, kid: v.kid, ...(typeof v.jwks === 'string' ? { jwks: v.jwks } : {}) };
}

/**
 * `superseded`: a later certificate of the same product version and scope took its place; it
 * still states what its run showed (the status names the later one as `supersededBy`).
 */
export type CertificateStatus = 'valid' | 'revoked' | 'superseded' | 'expired';
const CERTIFICATE_STATUSES: readonly string[] = ['valid', 'revoked', 'superseded', 'expired'];

/**
 * Where a certification service says a certificate's status: `<service>/certificates/<id>.json`
 * answering `{"status": "valid" | "revoked" | "superseded" | "expired"}` (a superseded one with
 * `"supersededBy": "<id>"`), the service being the JWKS URL without its `/.well-known/jwks.json`
 * (or its origin).
 */
export function certificateStatusUrl(jwksUrl: URL, certificate: string): URL {
  const base = jwksUrl.pathname.endsWith('/.well-known/jwks.json')
    ? jwksUrl.pathname.slice(0, -'/.well-known/jwks.json'.length)
    : '';
  return new URL(`${base}/certificates/${encodeURIComponent(certificate)}.json`, jwksUrl.origin);
}

/**
 * A certificate's status at its service (a superseded one's successor when the service names it
 * as a plain id), or why it could not be read.
 */
export async function fetchCertificateStatus(
  url: URL,
): Promise<{ status: CertificateStatus; supersededBy?: string } | { problem: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    if (res.status !== 200) return { problem: `HTTP ${res.status}` };
    const text = await res.text();
    if (text.length > 65536) return { problem: 'the answer is too long to be a status' };
    const value = JSON.parse(text) as unknown;
    const status = isObject(value) ? value.status : undefined;
    if (typeof status === 'string' && CERTIFICATE_STATUSES.includes(status)) {
      // Printed as it stands: only a plain id is taken.
      const by = isObject(value) ? value.supersededBy : undefined;
      const supersededBy =
        status === 'superseded' && typeof by === 'string' && /^[\w.:-]{1,200}$/.test(by) ? by : undefined;
      return { status: status as CertificateStatus, ...(supersededBy !== undefined ? { supersededBy } : {}) };
    }
    const received = JSON.stringify(status) ?? 'none';
    return { problem: `expected a status of valid, revoked, superseded or expired, received ${received}` };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    return {
      problem:
        err.name === 'TimeoutError'
          ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s`
          : err instanceof SyntaxError
            ? 'the answer is not JSON'
            : (err.cause?.code ?? err.message.split('\n')[0]),
    };
  }
}
