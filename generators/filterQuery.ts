/**
 * Valid search requests built from data the target itself returned: each filter proposes values
 * taken from real records (so filtered results are rarely empty), and a query combines one to
 * three filters with an optional `_sort`, `page` and `count` (DESIGN.md, "Generators").
 */
import fc from 'fast-check';

export type Resource = Record<string, unknown>;

export interface FilterDef {
  param: string;
  /** Parameter values this record would match (e.g. its insurer code, a range around its date). */
  valuesFrom: (r: Resource) => readonly string[];
  /** Whether a returned record honours the filter; undefined when the record does not show it. */
  matches: (r: Resource, value: string) => boolean | undefined;
}

export interface FilterQuery {
  filters: Record<string, string>;
  sort?: string;
  page: number;
  count: number;
}

/** Candidate values per filter from a sample of records; filters without values are dropped. */
export function candidateValues(sample: readonly Resource[], filters: readonly FilterDef[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
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
    if (values.length > 0) out.set(f.param, values.slice(0, 50));
  }
  return out;
}

export function filterQuery(
  sample: readonly Resource[],
  filters: readonly FilterDef[],
  options: { sortValues?: readonly string[]; maxFilters?: number; maxCount?: number } = {},
): fc.Arbitrary<FilterQuery> {
  const candidates = candidateValues(sample, filters);
  const entries = [...candidates.entries()];
  const filterSet =
    entries.length === 0
      ? fc.constant<Record<string, string>>({})
      : fc
          .uniqueArray(fc.constantFrom(...entries.map(([param]) => param)), {
            minLength: 1,
            maxLength: Math.min(options.maxFilters ?? 3, entries.length),
          })
          .chain((params) =>
            fc.tuple(...params.map((p) => fc.constantFrom(...(candidates.get(p) ?? [])).map((v) => [p, v] as const))),
          )
          .map((pairs) => Object.fromEntries(pairs));
  return fc.record({
    filters: filterSet,
    sort: options.sortValues?.length
      ? fc.option(fc.constantFrom(...options.sortValues), { nil: undefined })
      : fc.constant(undefined),
    page: fc.integer({ min: 1, max: 3 }),
    count: fc.integer({ min: 1, max: options.maxCount ?? 20 }),
  });
}
