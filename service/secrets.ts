/**
 * The service's cryptography, all from node:crypto: passwords hashed with scrypt, one-time tokens
 * (invites, session cookies) stored only as their SHA-256, and partner secrets sealed with
 * AES-256-GCM under the service key (CONFORMANCE_SERVICE_KEY).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 64 } as const;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, { N, r, p, maxmem: 256 * N * r }, (e, key) => (e ? reject(e) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // No hash (an invite not yet accepted): the same work is done, so timing does not tell.
  const parts = (stored ?? DUMMY_HASH).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await scryptAsync(password, Buffer.from(parts[4], 'base64url'), N, r, p, expected.length);
  return stored !== null && timingSafeEqual(key, expected);
}

const DUMMY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(64).toString('base64url')}`;

/** A one-time token for a link or a cookie: 256 random bits. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a token. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The service key is missing or malformed: one line (exit 2). */
export class ServiceKeyProblem extends Error {}

/** Reads a 32-byte key given as 64 hex digits or as base64 (43 or 44 characters). */
export function parseServiceKey(text: string, source: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(t) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(t))) {
    throw new ServiceKeyProblem(`${source} must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)`);
  }
  return key;
}

/** Seals and opens partner secrets: AES-256-GCM, a random 96-bit nonce each time, `v1.nonce.tag.data` (base64url). */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new ServiceKeyProblem('The service key must be 32 bytes');
    this.#key = key;
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', nonce, cipher.getAuthTag(), data]
      .map((x) => (typeof x === 'string' ? x : x.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, nonce, tag, data] = sealed.split('.');
    if (version !== 'v1' || data === undefined) throw new Error('Not a sealed secret of this service');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
