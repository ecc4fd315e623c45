/**
 * How each documented remittance filter shows in a returned record (Document 1, 2.4, 2.5, 4.4,
 * 4.5; DEC-D1-25, -26, -27, -69 to -72). Values are proposed from records the target returned.
 */
import { isRecord } from '../../core/exchange.ts';
import type { FilterDef, Resource } from './filterCandidates.ts';
import {
  containsText,
  dayOf,
  extensionValue,
  identifierValues,
  inDayRange,
  lastUpdated,
  numberOf,
  organisationBySystem,
  patientNameText,
  satisfiesComparator,
  timeOf,
} from './readers.ts';

const eqIgnoreCase = (a: unknown, b: string) =>
  typeof a === 'string' ? a.toLowerCase() === b.toLowerCase() : undefined;
const anyEq = (values: string[], v: string) =>
  values.length === 0 ? undefined : values.some((x) => x.toLowerCase() === v.toLowerCase());
const money = (v: unknown) => numberOf(v);
const amountOf = (r: Resource, ext: string) => money(extensionValue(r, ext));
const comparators = (n: number | undefined) => (n === undefined ? [] : [`ge${n}`, `le${n}`, `eq${n}`]);
const dayRanges = (day: string | undefined) =>
  day ? [`${day}_${day}`, `${day.slice(0, 8)}01_${day.slice(0, 8)}28`] : [];
const orgCode = (r: Resource, suffix: string) => {
  const o = organisationBySystem(r, suffix);
  return o ? identifierValues(o, suffix) : [];
};
const paymentRef = (r: Resource) =>
  isRecord(r.paymentIdentifier) && typeof r.paymentIdentifier.value === 'string'
    ? r.paymentIdentifier.value
    : undefined;

/** `_since` proposals: the last-updated instants of records (the filter keeps those at or after). */
const since: FilterDef = {
  param: '_since',
  valuesFrom: (r) => [lastUpdated(r)].filter((v): v is string => v !== undefined && v !== ''),
  matches: (r, v) => {
    const t = timeOf(lastUpdated(r));
    const since = timeOf(v);
    return t === undefined || since === undefined ? undefined : t >= since;
  },
};

export const summaryFilters: Record<string, FilterDef> = {
  insurerIdentifier: {
    param: 'insurerIdentifier',
    valuesFrom: (r) => orgCode(r, 'insurerIdentifier'),
    matches: (r, v) => anyEq(orgCode(r, 'insurerIdentifier'), v),
  },
  provider: {
    param: 'provider',
    valuesFrom: (r) => {
      const o = organisationBySystem(r, 'providerIdentifier');
      // Whole values only: the code, or the full provider name (the match rule is not stated, DEC-D1-26).
      return [...orgCode(r, 'providerIdentifier'), ...(o && typeof o.name === 'string' ? [o.name] : [])];
    },
    matches: (r, v) => {
      const o = organisationBySystem(r, 'providerIdentifier');
      if (!o) return undefined;
      return (
        orgCode(r, 'providerIdentifier').some((c) => c.toLowerCase() === v.toLowerCase()) ||
        containsText(o.name, v) === true
      );
    },
  },
  dateCreated: {
    param: 'dateCreated',
    valuesFrom: (r) => dayRanges(dayOf(r.created)),
    matches: (r, v) => inDayRange(dayOf(r.created), v),
  },
  datePaid: {
    param: 'datePaid',
    valuesFrom: (r) => dayRanges(dayOf(r.paymentDate)),
    matches: (r, v) => inDayRange(dayOf(r.paymentDate), v),
  },
  paymentAmount: {
    param: 'paymentAmount',
    valuesFrom: (r) => comparators(money(isRecord(r.paymentAmount) ? r.paymentAmount.value : undefined)),
    matches: (r, v) => satisfiesComparator(money(isRecord(r.paymentAmount) ? r.paymentAmount.value : undefined), v),
  },
  amountInvoiced: {
    param: 'amountInvoiced',
    valuesFrom: (r) => comparators(amountOf(r, 'totalInvoiced')),
    matches: (r, v) => satisfiesComparator(amountOf(r, 'totalInvoiced'), v),
  },
  insurerPaymentReference: {
    param: 'insurerPaymentReference',
    valuesFrom: (r) => [paymentRef(r)].filter((v): v is string => v !== undefined && v !== ''),
    matches: (r, v) => eqIgnoreCase(paymentRef(r), v),
  },
  hasShortFall: {
    param: 'hasShortFall',
    // `true` is a value a record shows only when its shortfall is above zero (DEC-D1-53: what the
    // amount is, is the server's reading), so a result of records without one proposes nothing.
    valuesFrom: (r) => ((amountOf(r, 'totalShortfall') ?? 0) > 0 ? ['true'] : []),
    // DEC-D1-25: `false` does not restrict.
    matches: (r, v) => {
      if (v.toLowerCase() !== 'true') return undefined;
      const s = amountOf(r, 'totalShortfall');
      return s === undefined ? false : s > 0;
    },
  },
  excludeExported: {
    param: 'excludeExported',
    valuesFrom: () => ['true'],
    // DEC-D1-25: `false` does not restrict.
    matches: (r, v) => {
      if (v.toLowerCase() !== 'true') return undefined;
      const e = extensionValue(r, 'isExported');
      return typeof e === 'boolean' ? !e : undefined;
    },
  },
  _since: since,
};

const detailNumbers = (r: Resource, name: string) => {
  const fromIdentifier = identifierValues(r, name);
  const ext = extensionValue(r, name);
  return typeof ext === 'string' ? [...fromIdentifier, ext] : fromIdentifier;
};
const membership = (r: Resource) => {
  const patients = Array.isArray(r.contained)
    ? r.contained.filter((c): c is Resource => isRecord(c) && c.resourceType === 'Patient')
    : [];
  return patients.flatMap((p) => identifierValues(p, 'membershipNumber'));
};

export const detailFilters: Record<string, FilterDef> = {
  invoiceNumber: {
    param: 'invoiceNumber',
    valuesFrom: (r) =>
      typeof extensionValue(r, 'invoiceNumber') === 'string' ? [extensionValue(r, 'invoiceNumber') as string] : [],
    matches: (r, v) => eqIgnoreCase(extensionValue(r, 'invoiceNumber'), v),
  },
  patientName: {
    param: 'patientName',
    valuesFrom: (r) => {
      const t = patientNameText(r);
      return t ? t.split(' ').slice(-1) : [];
    },
    matches: (r, v) => containsText(patientNameText(r), v),
  },
  membershipNumber: { param: 'membershipNumber', valuesFrom: membership, matches: (r, v) => anyEq(membership(r), v) },
  invoiceDate: {
    param: 'invoiceDate',
    valuesFrom: (r) => dayRanges(dayOf(extensionValue(r, 'invoiceDate'))),
    matches: (r, v) => inDayRange(dayOf(extensionValue(r, 'invoiceDate')), v),
  },
  hospitalNumber: {
    param: 'hospitalNumber',
    valuesFrom: (r) => detailNumbers(r, 'hospitalNumber'),
    matches: (r, v) => anyEq(detailNumbers(r, 'hospitalNumber'), v),
  },
  insurerBillNumber: {
    param: 'insurerBillNumber',
    valuesFrom: (r) => detailNumbers(r, 'insurerBillNumber'),
    matches: (r, v) => anyEq(detailNumbers(r, 'insurerBillNumber'), v),
  },
  invoiceTotal: {
    param: 'invoiceTotal',
    valuesFrom: (r) => comparators(amountOf(r, 'invoiceTotal')),
    matches: (r, v) => satisfiesComparator(amountOf(r, 'invoiceTotal'), v),
  },
  hasShortFall: {
    param: 'hasShortFall',
    // As for summaries: `true` is proposed only where a returned detail shows a shortfall.
    valuesFrom: (r) => ((amountOf(r, 'shortAmount') ?? 0) > 0 ? ['true'] : []),
    // DEC-D1-25: `false` does not restrict.
    matches: (r, v) => {
      if (v.toLowerCase() !== 'true') return undefined;
      const s = amountOf(r, 'shortAmount');
      return s === undefined ? false : s > 0;
    },
  },
  _since: since,
};

/** Sort keys: `created` for summaries, extension `createdOn` for details (DEC-D1-04). */
export const summarySortKey = (r: Resource) => (typeof r.created === 'string' ? r.created : undefined);
export const detailSortKey = (r: Resource) => {
  const v = extensionValue(r, 'createdOn');
  return typeof v === 'string' ? v : undefined;
};
