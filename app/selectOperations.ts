import { ConfigError } from '../core/config.ts';
import { operations } from '../spec/operations.ts';
import type { Operation } from '../spec/types.ts';

/** `--only` patterns: comma-separated operation ids with `*` wildcards. */
export function selectOperations(only: string | undefined): Operation[] {
  if (!only) return [...operations];
  const patterns = only
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const regexes = patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`));
  const picked = operations.filter((op) => regexes.some((r) => r.test(op.id)));
  if (picked.length === 0)
    throw new ConfigError(`--only ${only} matches no operation (see spec/operations.ts for ids)`);
  return picked;
}
