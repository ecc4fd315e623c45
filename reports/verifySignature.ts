/**
 * Signed report folders (issue 25): `signReportDir` adds signature.jws (a JWS over the sealed
 * results' digest, the derived files' SHA-256 and the run's facts, core/signing.ts) and
 * signature.json (the same statement, readable, for people: it proves nothing by itself) to a
 * folder that verifies intact; `verifySignature` checks the JWS with the keys given and holds
 * the statement against the folder as it now is.
 *
 * The signature is made after the folder is written, so report.html cannot carry it; a page
 * names its signer only when the results stated one before they were sealed (`signedBy`).
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { canonicalJson, digestOf } from '../core/integrity.ts';
import {
  type KeySource,
  type ReportStatement,
  SIGNATURE_JSON,
  SIGNATURE_JWS,
  type SignatureCheck,
  type SignedBy,
  type SigningKey,
  signStatement,
  statedSigner,
  statementOf,
  verifyStatement,
} from '../core/signing.ts';
import { RESULTS_JSON, readResults, verifyReportDir } from './writeReports.ts';

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The derived files a statement covers, by name. */
const DERIVED = Object.freeze(['junit.xml', 'report.html', 'requirements-coverage.csv']);

export interface SignOptions {
  key: SigningKey;
  /** The signer's name (the operator). */
  signer: string;
  /** The run's id at the signer (default: the results digest). */
  runId?: string;
  /** The certificate this run backs. */
  certificate?: string;
  /** When that certificate expires. */
  certificateExpiresAt?: string;
  /** When it was signed (default: now). */
  signedAt?: string;
}

/** A folder that cannot be signed: one line. */
export class NotSignable extends Error {}

/**
 * Signs a report folder: it must verify intact first (results.json sealed, every derived file
 * as the results give it), and when the results state a signer (`signedBy`) the key and name
 * must be that signer's. Writes signature.jws and signature.json; answers the statement.
 */
export async function signReportDir(
  dir: string,
  options: SignOptions,
): Promise<{ statement: ReportStatement; jws: string }> {
  const root = resolve(dir);
  const v = await verifyReportDir(root);
  if (!v.intact)
    throw new NotSignable(
      v.integrity.state === 'missing'
        ? `${root}: results.json is not sealed (no digest); only a sealed report folder is signed`
        : `${root} is not as its run wrote it (conformance verify-report ${root}); an altered folder is not signed`,
    );
  const results = await readResults(join(root, RESULTS_JSON));
  const stated = statedSigner(results);
  if (stated && (stated.kid !== options.key.kid || stated.name !== options.signer))
    throw new NotSignable(
      `results.json states the signer ${stated.name} (key ${stated.kid}); expected the same, received ${options.signer} (key ${options.key.kid})`,
    );
  const files: Record<string, string> = {};
  for (const name of DERIVED) files[name] = sha256(await readFile(join(root, name)));
  const statement = statementOf(results, files, options);
  const jws = await signStatement(statement, options.key);
  // Written whole, then renamed: a reader never sees half a signature.
  const summary = {
    kid: options.key.kid,
    alg: 'EdDSA',
    note: 'A readable copy of signature.jws; conformance verify-report DIR --key checks the signature.',
    ...statement,
  };
  await writeFile(join(root, `${SIGNATURE_JSON}.part`), `${JSON.stringify(summary, null, 2)}\n`, 'utf8');
  await writeFile(join(root, `${SIGNATURE_JWS}.part`), `${jws}\n`, 'utf8');
  await rename(join(root, `${SIGNATURE_JSON}.part`), join(root, SIGNATURE_JSON));
  await rename(join(root, `${SIGNATURE_JWS}.part`), join(root, SIGNATURE_JWS));
  return { statement, jws };
}

/** What a signed folder's statement says against the folder as it now is. */
export interface SignatureVerification {
  /** `absent`: no signature.jws (a local run). */
  signature: SignatureCheck | { state: 'absent' };
  /** Each way the folder differs from the signed statement (empty when it agrees). */
  mismatches: string[];
}

async function readOptional(path: string): Promise<string | undefined> {
  return (await readOptionalBytes(path))?.toString('utf8');
}

async function readOptionalBytes(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`Cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Whether a folder carries a signature, and the signer its results state (no key needed). */
export async function signaturePresence(dir: string): Promise<{ present: boolean; stated?: SignedBy }> {
  const root = resolve(dir);
  const present = (await readOptional(join(root, SIGNATURE_JWS))) !== undefined;
  const stated = statedSigner(await readResults(join(root, RESULTS_JSON)));
  return { present, ...(stated ? { stated } : {}) };
}

/**
 * Checks signature.jws with the keys given and holds its statement against the folder: the
 * signed digest against results.json's content (recomputed, not as stated), the signed SHA-256
 * of each derived file, the signer results.json states, and signature.json.
 */
export async function verifySignature(dir: string, keys: KeySource): Promise<SignatureVerification> {
  const root = resolve(dir);
  const jws = await readOptional(join(root, SIGNATURE_JWS));
  if (jws === undefined) return { signature: { state: 'absent' }, mismatches: [] };
  const signature = await verifyStatement(jws, keys);
  if (signature.state !== 'verified') return { signature, mismatches: [] };
  const s = signature.statement;
  const mismatches: string[] = [];
  const results = await readResults(join(root, RESULTS_JSON));
  const actual = digestOf(results);
  if (s.resultsDigest.digest !== actual)
    mismatches.push(`results.json: the signature covers SHA-256 ${s.resultsDigest.digest}, its content has ${actual}`);
  for (const [name, digest] of Object.entries(s.files)) {
    const bytes = await readOptionalBytes(join(root, name));
    if (bytes === undefined) mismatches.push(`${name}: missing (the signature covers it)`);
    else if (sha256(bytes) !== digest) mismatches.push(`${name}: differs from the file the signature covers`);
  }
  const stated = statedSigner(results);
  if (stated && (stated.kid !== signature.header.kid || stated.name !== s.signer))
    mismatches.push(
      `results.json states the signer ${stated.name} (key ${stated.kid}); the signature is by ${s.signer} (key ${String(signature.header.kid)})`,
    );
  const summary = await readOptional(join(root, SIGNATURE_JSON));
  if (summary !== undefined) {
    let same = false;
    try {
      const { kid: _kid, alg: _alg, note: _note, ...rest } = JSON.parse(summary) as Record<string, unknown>;
      same = canonicalJson(rest) === canonicalJson(s);
    } catch {
      same = false;
    }
    if (!same) mismatches.push(`${SIGNATURE_JSON}: differs from the signed statement (signature.jws is what counts)`);
  }
  return { signature, mismatches };
}
