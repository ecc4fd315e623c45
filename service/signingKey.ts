/**
 * The service's signing key (issue 25): the Ed25519 key it signs run reports and certificates with
 * (core/signing.ts), whose public half it publishes at /.well-known/jwks.json.
 *
 * Where it comes from, first found: `--signing-key FILE` (a PKCS#8 PEM, as `conformance keys
 * generate` writes it), then CONFORMANCE_SERVICE_SIGNING_KEY holding the PEM text itself (as a
 * secret store injects it; a path goes with --signing-key). On the embedded engine without either,
 * a key is generated once into the data folder (signing-key.pem, mode 600), as service.key is. The
 * command requires one with PostgreSQL (`required`): every machine signs, and verifiers know one
 * key set.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { generateSigningKeyPair, KeyProblem, type SigningKey, signingKeyFromPem } from '../core/signing.ts';
import { ServiceKeyProblem } from './secrets.ts';

/** The file the embedded engine's generated signing key is kept in, in the data folder. */
export const SIGNING_KEY_FILE = 'signing-key.pem';
export const SIGNING_KEY_VARIABLE = 'CONFORMANCE_SERVICE_SIGNING_KEY';
/** Where the service publishes the public keys it signs with. */
export const JWKS_PATH = '/.well-known/jwks.json';

function fromPem(pem: string, where: string): Promise<SigningKey> {
  return signingKeyFromPem(pem).catch((e: unknown) => {
    if (e instanceof KeyProblem) throw new ServiceKeyProblem(`${where}: ${e.message}`);
    throw e;
  });
}

export async function serviceSigningKey(options: {
  file?: string;
  environment: NodeJS.ProcessEnv;
  dataDir: string;
  /** Refuse to generate one (PostgreSQL, started by the command). */
  required: boolean;
}): Promise<SigningKey> {
  if (options.file !== undefined) {
    let pem: string;
    try {
      pem = readFileSync(options.file, 'utf8');
    } catch (e) {
      throw new ServiceKeyProblem(
        `--signing-key ${options.file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    return fromPem(pem, `--signing-key ${options.file}`);
  }
  const fromEnvironment = options.environment[SIGNING_KEY_VARIABLE];
  if (fromEnvironment) {
    if (!fromEnvironment.includes('-----BEGIN'))
      throw new ServiceKeyProblem(
        `Expected the PEM text of an Ed25519 private key in ${SIGNING_KEY_VARIABLE}, received something else (a key file goes with --signing-key FILE)`,
      );
    return fromPem(fromEnvironment, SIGNING_KEY_VARIABLE);
  }
  if (options.required)
    throw new ServiceKeyProblem(
      `--signing-key FILE or ${SIGNING_KEY_VARIABLE} must be given with --database-url (every machine of the service signs with the same key; conformance keys generate makes one)`,
    );
  const file = join(options.dataDir, SIGNING_KEY_FILE);
  if (!existsSync(file)) {
    const pair = await generateSigningKeyPair();
    try {
      writeFileSync(file, pair.privatePem, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // Another process of the same folder made it first: read theirs.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return fromPem(readFileSync(file, 'utf8'), file);
}

/**
 * Keys the service signed with before its current one (`--retired-keys FILE`: a JWK set of public
 * keys, as `conformance keys generate` writes jwks.json): published at JWKS_PATH beside the current
 * key, so that folders and certificates signed before a key was replaced still verify; never used
 * to sign. A set holding a private part, or a key other than Ed25519 with its id, is refused, as
 * is a key that does not say when it stopped signing (`notAfter`, an ISO 8601 date-time that
 * `conformance keys retire FILE` writes): verify-report refuses what it signed later.
 */
export function retiredKeys(file: string): JWK[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const why =
      e instanceof SyntaxError ? 'it is not JSON' : ((e as NodeJS.ErrnoException).code ?? (e as Error).message);
    throw new ServiceKeyProblem(`--retired-keys ${file} cannot be read: ${why}`);
  }
  const keys = (value as { keys?: unknown }).keys;
  if (!Array.isArray(keys))
    throw new ServiceKeyProblem(
      `Expected a JWK set ({"keys": [...]}) in --retired-keys ${file}, received something else`,
    );
  return keys.map((k: Record<string, unknown>, i) => {
    if (k === null || typeof k !== 'object' || k.kty !== 'OKP' || k.crv !== 'Ed25519' || typeof k.x !== 'string')
      throw new ServiceKeyProblem(
        `Expected Ed25519 public keys in --retired-keys ${file}, received another at keys[${i}]`,
      );
    if (typeof k.kid !== 'string' || k.kid === '')
      throw new ServiceKeyProblem(`Expected every key of --retired-keys ${file} to have its kid, keys[${i}] has none`);
    if ('d' in k)
      throw new ServiceKeyProblem(
        `--retired-keys ${file} holds a private key (keys[${i}].d): publish public keys only (the jwks.json of keys generate)`,
      );
    if (typeof k.notAfter !== 'string' || Number.isNaN(Date.parse(k.notAfter)))
      throw new ServiceKeyProblem(
        `Expected keys[${i}] (${k.kid}) of --retired-keys ${file} to say when it stopped signing ("notAfter"): conformance keys retire ${file} writes it`,
      );
    return {
      kty: 'OKP',
      crv: 'Ed25519',
      x: k.x,
      kid: k.kid,
      ...(typeof k.alg === 'string' ? { alg: k.alg } : {}),
      notAfter: new Date(k.notAfter).toISOString(),
    };
  });
}
