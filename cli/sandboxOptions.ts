/** `--fault NAME` and `--variant NAME`, as `serve` and `start` take them: checked against the catalogues. */
import { commandName } from '../core/commandName.ts';
import { UsageError, type Values } from './command.ts';

export async function faultNames(values: Values): Promise<string[]> {
  const names = (values.fault as string[] | undefined) ?? [];
  if (names.length === 0) return names;
  // A hand-written fault, or a shape fault derived from a response schema (`shape:...`, scripts/power.ts).
  const { isFaultName } = await import('../server/faults/catalog.ts');
  for (const n of names)
    if (!isFaultName(n)) throw new UsageError(`Unknown fault ${n} (see \`${commandName()} faults\`)`);
  return names;
}

export async function variantNames(values: Values): Promise<string[]> {
  const names = (values.variant as string[] | undefined) ?? [];
  if (names.length === 0) return names;
  const { VARIANTS } = await import('../server/variants/catalog.ts');
  // `--variant all`: every variant at once, as the self-test and the soak run them.
  if (names.includes('all')) return VARIANTS.map((v) => v.name);
  const known = new Set(VARIANTS.map((v) => v.name));
  for (const n of names)
    if (!known.has(n)) throw new UsageError(`Unknown variant ${n} (see \`${commandName()} variants\`)`);
  return names;
}
