/**
 * Filters a search property judges, and the values the target itself returned for them: each
 * filter proposes values taken from real records, which the derivation (generators/requestArbitrary.ts)
 * mixes into the valid requests as fixtures, so that filtered results are rarely empty.
 */
import type fc from 'fast-check';
import { validRequest } from '../../generators/requestArbitrary.ts';
import type { FeatureName, Operation } from '../../spec/types.ts';

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

/** One generated search: its filters, its sort (when asked) and its page and count (defaults 1 and 20). */
export interface FilterSearch {
  filters: Record<string, string>;
  sort?: string;
  page: number;
  count: number;
}

/**
 * Generated searches of an operation over the filters a property judges: values of their
 * documented forms from the derivation (generators/requestArbitrary.ts), the values of returned
 * records mixed in at 0.8 so that filtered results are rarely empty, at most `maxFilters` filters
 * (with page and count counted among them), `_sort` when `sort` is set.
 */
export function filterSearches(
  op: Operation,
  filters: readonly FilterDef[],
  sample: readonly Resource[],
  options: { features?: readonly FeatureName[]; maxFilters?: number; sort?: boolean; paging?: boolean } = {},
): fc.Arbitrary<FilterSearch> {
  const paging = options.paging ?? true;
  return validRequest(op, {
    features: options.features,
    optional: [
      ...filters.map((f) => f.param),
      ...(options.sort ? ['_sort'] : []),
      ...(paging ? ['page', 'count'] : []),
    ],
    ...(options.maxFilters === undefined ? {} : { maxOptional: options.maxFilters }),
    fixtures: candidateValues(sample, filters),
    fixtureWeight: 0.8,
  }).map((r) => {
    const { _sort: sort, page, count, ...rest } = { ...r.query, ...r.form };
    return {
      filters: paging ? rest : { ...rest, ...(page ? { page } : {}), ...(count ? { count } : {}) },
      ...(sort === undefined ? {} : { sort }),
      page: Number(page ?? '1'),
      count: Number(count ?? '20'),
    };
  });
}
