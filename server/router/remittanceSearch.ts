/**
 * Remittance summary and detail searches (Document 1, 4.4, 4.5, 7; DEC-D1-01, -04, -15, -24..28).
 * Summaries and details of the SU-SiteId site only; feature-gated fields need the caller's
 * features; `_sort` createdOn / -createdOn, plus the example values providerName / invoiceTotal.
 */
import type { RemittanceDetail, RemittanceSummary } from '../repo/model.ts';
import { claimResponseOf, paymentReconciliationOf } from '../resources/remittance.ts';
import { authorise } from './auth.ts';
import { ApiError } from './errors.ts';
import { pagedBundle, pagingOf } from './paging.ts';
import {
  SEARCH_PROFILE,
  applyFilters,
  comparator,
  containsText,
  dateRange,
  readParameters,
  sameText,
  since,
} from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const SUMMARY_OP = 'search-remittance-summary';
const DETAIL_OP = 'search-remittance-detail';

type Summary = { summary: RemittanceSummary; details: readonly RemittanceDetail[] };
type Filter<T> = (item: T, value: string) => boolean;

const patientText = (d: RemittanceDetail) =>
  d.patientName ? [...d.patientName.prefix, ...d.patientName.given, d.patientName.family].join(' ') : '';

export const DETAIL_FILTERS: Readonly<Record<string, Filter<RemittanceDetail>>> = {
  invoiceNumber: (d, v) => sameText(d.invoiceNumber, v),
  patientName: (d, v) => containsText(patientText(d), v),
  membershipNumber: (d, v) => sameText(d.membershipNumber, v),
  invoiceDate: (d, v) => dateRange(v)(d.invoiceDate),
  hospitalNumber: (d, v) => sameText(d.hospitalNumber, v),
  insurerBillNumber: (d, v) => sameText(d.insurerBillNumber, v),
  invoiceTotal: (d, v) => comparator(v)(d.invoiceTotal),
  hasShortFall: (d, v) => v === 'false' || (d.shortAmount ?? 0) > 0,
  _since: (d, v) => since(v)(d.lastUpdated),
};

const anyDetail =
  (f: Filter<RemittanceDetail>): Filter<Summary> =>
  (s, v) =>
    s.details.some((d) => f(d, v));

export const SUMMARY_FILTERS: Readonly<Record<string, Filter<Summary>>> = {
  insurerIdentifier: ({ summary }, v) => summary.insurer === v,
  provider: ({ summary }, v) => sameText(summary.providerCode, v) || containsText(summary.providerName, v),
  invoiceNumber: anyDetail(DETAIL_FILTERS.invoiceNumber),
  patientName: anyDetail(DETAIL_FILTERS.patientName),
  membershipNumber: anyDetail(DETAIL_FILTERS.membershipNumber),
  dateCreated: ({ summary }, v) => dateRange(v)(summary.created),
  datePaid: ({ summary }, v) => dateRange(v)(summary.paymentDate),
  paymentAmount: ({ summary }, v) => comparator(v)(summary.amountPaid),
  amountInvoiced: ({ summary }, v) => comparator(v)(summary.totalInvoiced),
  insurerPaymentReference: ({ summary }, v) => sameText(summary.paymentReference, v),
  hasShortFall: ({ summary }, v) => v === 'false' || (summary.totalShortfall ?? 0) > 0,
  excludeExported: ({ summary }, v) => v === 'false' || !summary.isExported,
  _since: ({ summary }, v) => since(v)(summary.lastUpdated),
};

/** `_sort` keys without their `-` (DEC-D1-04: the documented createdOn plus the example values). */
const SUMMARY_SORT_KEYS: Readonly<Record<string, (s: RemittanceSummary) => string | number>> = {
  createdOn: (s) => Date.parse(s.created),
  providerName: (s) => s.providerName.toLowerCase(),
};

const DETAIL_SORT_KEYS: Readonly<Record<string, (d: RemittanceDetail) => string | number>> = {
  createdOn: (d) => Date.parse(d.createdOn),
  invoiceTotal: (d) => d.invoiceTotal,
};

/** Sorts by a key with id as tie-breaker; a leading `-` reverses the whole order. */
function sortBy<T extends { id: string }>(
  items: T[],
  key: ((t: T) => string | number) | undefined,
  descending: boolean,
): T[] {
  const byId = (a: T, b: T) => a.id.localeCompare(b.id);
  const cmp =
    key === undefined
      ? byId
      : (a: T, b: T) => {
          const ka = key(a);
          const kb = key(b);
          return ka < kb ? -1 : ka > kb ? 1 : byId(a, b);
        };
  const sorted = [...items].sort(cmp);
  return descending ? sorted.reverse() : sorted;
}

export async function searchRemittanceSummary(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await authorise(req, ctx, SUMMARY_OP);
  const values = readParameters(ctx, {
    operationId: SUMMARY_OP,
    profile: SEARCH_PROFILE,
    source: caller.form,
    client: caller.client,
    extraValues: { _sort: ['providerName', '-providerName'] },
    aliases: { paymentReference: 'insurerPaymentReference' },
  });
  const summaries = await ctx.repo.remittanceSummaries(caller.siteId);
  const withDetails = await Promise.all(
    summaries.map(async (summary) => ({ summary, details: await ctx.repo.remittanceDetails(summary.id) })),
  );
  const matches = applyFilters(withDetails, SUMMARY_FILTERS, values).map((s) => s.summary);

  const sort = values._sort ?? '';
  const descending = sort.startsWith('-');
  return ok(
    pagedBundle({
      operationId: SUMMARY_OP,
      type: 'searchset',
      matches: sortBy(matches, SUMMARY_SORT_KEYS[sort.replace(/^-/, '')], descending),
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (s) => ({ resource: paymentReconciliationOf(s) }),
    }),
  );
}

export async function searchRemittanceDetail(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await authorise(req, ctx, DETAIL_OP);
  const values = readParameters(ctx, {
    operationId: DETAIL_OP,
    profile: SEARCH_PROFILE,
    source: caller.form,
    path: req.params,
    client: caller.client,
    extraValues: { _sort: ['invoiceTotal', '-invoiceTotal'] },
  });
  const summaryId = values.remittance_summary_id;
  const summary = await ctx.repo.remittanceSummary(caller.siteId, summaryId);
  if (!summary)
    throw new ApiError(422, 'MSG_PARAM_INVALID', `No remittance summary ${summaryId} for site ${caller.siteId}`);
  const matches = applyFilters(await ctx.repo.remittanceDetails(summary.id), DETAIL_FILTERS, values);

  const sort = values._sort ?? '';
  return ok(
    pagedBundle({
      operationId: DETAIL_OP,
      type: 'searchset',
      matches: sortBy(matches, DETAIL_SORT_KEYS[sort.replace(/^-/, '')], sort.startsWith('-')),
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (d) => ({ resource: claimResponseOf(d) }),
    }),
  );
}
