/**
 * Credentials inside the suites: tokens of the config's named credentials (obtained once and
 * cached, or fresh for steps that consume them) and Basic values. Every token obtained is learnt
 * by the redactor before anything can record it.
 */
import type { Tokens } from './token.ts';
import { obtainTokens } from './token.ts';
import { learnSecret, runContext, worker } from './worker.ts';

const tokenCache = new Map<string, Promise<string>>();

/**
 * Fresh tokens of a named credential (config `credentials`), for steps that consume them
 * (revoke, logout). Undefined when the config does not name it; throws a one-line error when the
 * target refuses to issue them (recorded as `error` by the suite step).
 */
export async function freshTokens(name: string): Promise<Tokens | undefined> {
  const credentials = runContext().credentials[name];
  if (!credentials) return undefined;
  const tokens = await obtainTokens(worker().client, credentials);
  learnSecret(tokens.access);
  if (tokens.refresh) learnSecret(tokens.refresh);
  return tokens;
}

/** The (cached) access token of a named credential; undefined when the config does not name it. */
export async function tokenFor(name: string): Promise<string | undefined> {
  if (!runContext().credentials[name]) return undefined;
  let token = tokenCache.get(name);
  if (!token) {
    token = freshTokens(name).then((t) => t?.access ?? '');
    tokenCache.set(name, token);
  }
  return token;
}

/** `Basic <base64(id:secret)>` value of a named Basic credential. */
export function basicFor(name: string): string | undefined {
  const b = runContext().basic[name];
  return b ? Buffer.from(`${b.clientId}:${b.clientSecret}`).toString('base64') : undefined;
}
