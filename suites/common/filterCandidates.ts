/**
 * Filters a search property judges, and the values the target itself returned for them: each
 * filter proposes values taken from real records, which the derivation (generators/requestArbitrary.ts)
 * mixes into the valid requests as fixtures, so that filtered results are rarely empty.
 */

export type Resource = Record<string, unknown>;

export interface FilterDef {
  param: string;
  /** Parameter values this record would match (e.g. its insurer code, a range around its date). */
  valuesFrom: (r: Resource) => readonly string[];
  /** Whether a returned record honours the filter; undefined when the record does not show it. */
  matches: (r: Resource, value: string) => boolean | undefined;
}

/** Candidate values per filter from a sample of records (at most 50 each); filters without values are left out. */
export function candidateValues(sample: readonly Resource[], filters: readonly FilterDef[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of filters) {
    const values = [
      ...new Set(
        sample.flatMap((r) => {
          try {
            return f.valuesFrom(r).filter((v) => typeof v === 'string' && v !== '');
          } catch {
            return [];
          }
        }),
      ),
    ].sort();
    if (values.length > 0) out[f.param] = values.slice(0, 50);
  }
  return out;
}
