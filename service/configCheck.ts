/**
 * A partner's config, checked before it is stored: valid JSON, valid against core/config.schema.json
 * (through core/config.ts, the one reader of configs), and naming nothing of the service's own
 * machine: no files (http.caFile, clientCertFile, clientKeyFile) and no proxy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../core/config.ts';

/** Settings a hosted run does not take from a partner: they name the service's own files or network. */
export const REFUSED_HTTP_SETTINGS = ['caFile', 'clientCertFile', 'clientKeyFile', 'proxy'] as const;

/**
 * The settings a hosted run does not take, by where they sit in a config, with why: the form
 * shows their fields disabled. The files and proxy are refused (checkConfigText); the target is
 * the product's server base URL, whatever the config says.
 */
export const REFUSED_POINTERS: ReadonlyMap<string, string> = new Map([
  ...REFUSED_HTTP_SETTINGS.map((s): [string, string] => [
    `/http/${s}`,
    'the service does not read files or use proxies of a config',
  ]),
  ['/target', "the target is the product's server base URL"],
]);

/** Every problem of a config's text, one line each; none when it can be stored. */
export function checkConfigText(text: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return [`Expected the config as JSON, received text that does not parse: ${(e as Error).message}`];
  }
  const http = (data as { http?: Record<string, unknown> } | null)?.http;
  const refused = REFUSED_HTTP_SETTINGS.filter((s) => http && typeof http === 'object' && s in http);
  if (refused.length > 0)
    return [
      `Expected no ${refused.map((s) => `http.${s}`).join(', ')}: the service does not read files or use proxies of a config`,
    ];
  const dir = mkdtempSync(join(tmpdir(), 'service-config-'));
  try {
    const file = join(dir, 'config.json');
    writeFileSync(file, text);
    // Every secret stands in as a placeholder: only the file's shape is judged here.
    const anySecret = new Proxy({} as Record<string, string>, { get: () => 'placeholder' });
    loadConfig({ file, target: 'https://example.invalid', environment: {}, fallbacks: anySecret });
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return [e.message.replace(/^Config file \S+ /, 'The config ')];
    return [`The config cannot be used: ${(e as Error).message.split('\n')[0]}`];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A problem of a config with the place it is at (a JSON pointer; '' for the whole config). */
export interface ConfigProblem {
  pointer: string;
  line: string;
}

/** checkConfigText's problems, each with the place it names (the form shows it at that field). */
export function checkConfigProblems(text: string): ConfigProblem[] {
  return checkConfigText(text).map((line) => {
    const invalidAt = /invalid at (\/\S*?):/.exec(line)?.[1];
    if (invalidAt !== undefined) {
      const extra = /\(([^()]+)\)$/.exec(line)?.[1];
      // An unknown member is named after the object holding it.
      return { pointer: invalidAt === '/' ? (extra ? `/${extra}` : '') : invalidAt, line };
    }
    const refused = /Expected no (http\.\w+)/.exec(line)?.[1];
    if (refused) return { pointer: `/${refused.replace('.', '/')}`, line };
    const unnamed = /names no (\w+)/.exec(line)?.[1];
    if (unnamed) return { pointer: `/${unnamed}`, line };
    return { pointer: '', line };
  });
}
