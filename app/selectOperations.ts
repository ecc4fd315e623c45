import { commandName } from '../core/commandName.ts';
import { ConfigError } from '../core/config.ts';
import { operations } from '../spec/operations.ts';
import type { Operation } from '../spec/types.ts';

/**
 * `--only` patterns, comma-separated: operation ids with `*` wildcards, or a document (`D1`, `D2`,
 * `D3`, any case) standing for all of its operations.
 */
export function selectOperations(only: string | undefined): Operation[] {
  if (!only) return [...operations];
  const patterns = only
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const regexes = patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`));
  const documents = patterns.filter((p) => /^d[1-3]$/i.test(p)).map((p) => p.toUpperCase());
  const picked = operations.filter((op) => documents.includes(op.document) || regexes.some((r) => r.test(op.id)));
  if (picked.length === 0)
    throw new ConfigError(`--only ${only} matches no operation (see ${commandName()} operations)`);
  return picked;
}
