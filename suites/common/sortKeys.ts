/**
 * The sort key each documented `_sort` value orders an operation's entries by, read in one place:
 * the suites judge an order with these readers (entriesSorted, entriesSortedOverPages, the ties of
 * sortOrdersReverse), and `conformance compare` compares a run of entries with equal keys as a set
 * (app/compare/answers.ts), since ties may come in any order (DEC-D1-04, DEC-D1-22). Keys compare
 * through checks/sortKey.ts `compareSortKeys`.
 */
import { isRecord } from '../../core/exchange.ts';
import type { SortKey } from '../../checks/entriesSorted.ts';
import { haversineKm, type LatLon } from '../../checks/withinRadius.ts';
import type { Resource } from './filterCandidates.ts';
import { includedIndex, positionOf, roleLocationRefs } from './registerFilters.ts';
import { detailSortKey, summarySortKey } from './remittanceFilters.ts';

export type SortKeyOf = (resource: Resource) => SortKey | undefined;

/** `_sort=issueDate` of an authorisation search orders by the record's `created` (DEC-D1-22). */
export const authorisationSortKey: SortKeyOf = (r) => (typeof r.created === 'string' ? r.created : undefined);

/** `_sort=name:*` of a role search orders by the name "Title GivenName" its practitioner's display shows (D2 4.11). */
export const roleNameSortKey: SortKeyOf = (r) => {
  const p = r.practitioner as Record<string, unknown> | undefined;
  return typeof p?.display === 'string' ? p.display.toLowerCase() : undefined;
};

/**
 * `_sort=distance:*` of a role search orders by the distance from the `near` centre to the nearest
 * of the role's locations, read through the answer's included Locations (`index`).
 */
export function roleDistanceSortKey(index: ReadonlyMap<string, Resource>, centre: LatLon): SortKeyOf {
  return (r) => {
    const d = roleLocationRefs(r)
      .map((l) => positionOf(index.get(l)))
      .filter((p) => p !== undefined)
      .map((p) => haversineKm(centre, p));
    return d.length ? Math.min(...d) : undefined;
  };
}

/** The centre of a `near` value (`lat:lon:distance:unit`), when it names one. */
function centreOf(near: string | null | undefined): LatLon | undefined {
  const [lat, lon] = (near ?? '').split(':').map(Number);
  return lat !== undefined && lon !== undefined && Number.isFinite(lat) && Number.isFinite(lon)
    ? { lat, lon }
    : undefined;
}

/**
 * The key an answer's entries are ordered by for a `_sort` value of an operation (the direction
 * sign, `-`, `:asc` or `:desc`, read off), or undefined when the value is none the suites judge.
 * `answer` is the answer's body and the request's parameters (a distance sort reads the `near`
 * centre and the Locations the answer includes).
 */
export function sortKeyFor(
  operation: string,
  sort: string,
  answer: { body: unknown; parameters: URLSearchParams },
): SortKeyOf | undefined {
  const field = sort.replace(/^-/, '').replace(/:(asc|desc)$/, '');
  switch (`${operation} ${field}`) {
    case 'search-authorisation issueDate':
      return authorisationSortKey;
    case 'search-remittance-summary createdOn':
      return summarySortKey;
    case 'search-remittance-detail createdOn':
      return detailSortKey;
    case 'search-register-practitioner-roles name':
      return roleNameSortKey;
    case 'search-register-practitioner-roles distance': {
      const centre = centreOf(answer.parameters.get('near'));
      return centre && isRecord(answer.body) ? roleDistanceSortKey(includedIndex(answer.body), centre) : undefined;
    }
    default:
      return undefined;
  }
}
