/**
 * The variant catalogue: every named variant of the sandbox (`--variant NAME`, repeatable and
 * combinable with faults). Each names what allows it (`allowedBy`); the self-test
 * (test/variants.test.ts) proves that the clean sandbox under each variant alone, and under all of
 * them together, is conformant, and that each variant really changes what the sandbox answers.
 */
import { operations as OPERATIONS } from '../../spec/operations.ts';
import { D1_CLAIMS_VARIANTS } from './d1Claims.ts';
import { D1_MEMBERSHIP_VARIANTS } from './d1Membership.ts';
import { D2_VARIANTS } from './d2.ts';
import { D3_VARIANTS } from './d3.ts';
import { D3_SILENCE_VARIANTS } from './d3Silences.ts';
import { HTTP_FREEDOM_VARIANTS } from './http.ts';
import { PROTOCOL_VARIANTS } from './protocol.ts';
import { REGISTER_VARIANTS } from './register.ts';
import type { Variant, VariantInfo } from './types.ts';

export type { Variant, VariantInfo, VariantScope } from './types.ts';

const ALL: readonly Variant[] = [
  ...PROTOCOL_VARIANTS,
  ...D1_MEMBERSHIP_VARIANTS,
  ...D1_CLAIMS_VARIANTS,
  ...D2_VARIANTS,
  ...D3_VARIANTS,
  ...D3_SILENCE_VARIANTS,
  ...HTTP_FREEDOM_VARIANTS,
  ...REGISTER_VARIANTS,
];

const byName = new Map<string, Variant>();
for (const v of ALL) {
  if (byName.has(v.name)) throw new Error(`Variant ${v.name} is defined twice`);
  byName.set(v.name, v);
}

/** What `conformance variants --describe` lists and the self-test reads (no functions). */
export const VARIANTS: readonly VariantInfo[] = ALL.map(({ name, kind, allowedBy, description, operations }) => ({
  name,
  kind,
  allowedBy,
  description,
  operations,
}));

export const isKnownVariant = (name: string): boolean => byName.has(name);

/** The operation ids a variant changes ('all' expanded over the operation table). */
export function variantOperations(v: Pick<VariantInfo, 'operations'>): string[] {
  return v.operations === 'all' ? OPERATIONS.map((o) => o.id) : [...v.operations];
}

/** The variants switched on in one sandbox, in the order given. */
export class ActiveVariants {
  readonly #on: readonly Variant[];

  constructor(names: readonly string[] = []) {
    const unknown = names.filter((n) => !byName.has(n));
    if (unknown.length > 0) throw new Error(`Unknown variant ${unknown[0]}`);
    this.#on = [...new Set(names)].flatMap((n) => byName.get(n) ?? []);
  }

  /**
   * The active variants concerning a route: those naming one of its operations, and the 'all'
   * ones (which also apply to the sandbox's own routes: discovery, token, errors off any route).
   */
  for(routeOperations: readonly string[]): readonly Variant[] {
    return this.#on.filter((v) => v.operations === 'all' || routeOperations.some((o) => v.operations.includes(o)));
  }

  list(): string[] {
    return this.#on.map((v) => v.name);
  }
}
