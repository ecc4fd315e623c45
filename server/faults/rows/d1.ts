/**
 * Faults of Document 1 written to prove its MUST rows that no derived shape fault reaches (issue
 * 30, item 1). Each breaks one documented rule, names the rows it proves and the check that must
 * catch it citing them; its scenario is in d1.test.ts.
 */
import { FIND_MEMBER_V2_INSURERS, operation } from '../../../spec/operations.ts';
import type { Batch } from '../../repo/model.ts';
import type { Repository } from '../../repo/repository.ts';
import { batchHeaderOf } from '../../resources/batch.ts';
import { coverageOf } from '../../resources/coverage.ts';
import { claimResponseOf, paymentReconciliationOf } from '../../resources/remittance.ts';
import { refExtension } from '../../resources/urls.ts';
import {
  arr,
  errorCodeOf,
  isObject,
  mapResources,
  withForm,
  withParameter,
  withQuery,
  type JsonObject,
} from '../../modifiers/json.ts';
import { billOf } from '../../resources/bill.ts';
import { singlePageBundle, DEFAULT_COUNT } from '../../router/paging.ts';
import { FORMATS, isDate, sameText } from '../../router/params.ts';
import { DETAIL_FILTERS, SUMMARY_FILTERS } from '../../router/remittanceSearch.ts';
import { operationOutcome } from '../../router/errors.ts';
import type { ModifierScope, SandboxReply, SandboxRequest } from '../../router/types.ts';
import type { RowFault } from './types.ts';

const FIND_MEMBER = ['find-member-v1', 'find-member-v2'];
const LIST = 'list-pending-remittances';
const GET = 'get-remittance-details';
const ACK = 'ack-remittance';

const DETAIL = 'search-remittance-detail';
const SEARCH_HOSPITAL = 'search-hospital-claims';
/** 4.10: the search fields naming the patient. */
const PATIENT_FIELDS = ['patientLastName', 'patientDateOfBirth'];
/** The calendar day before a `yyyy-MM-dd` day. */
const dayBefore = (day: string): string => {
  const d = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};
const withBody = (reply: SandboxReply, body: unknown): SandboxReply => ({ ...reply, body });
const versionOf = (scope: ModifierScope) => (scope.request.headers['svc-api-version'] ?? '').trim();
const isInvalidId = (reply: SandboxReply) =>
  reply.status >= 400 && reply.status < 500 && isObject(reply.body) && reply.body.code === 'InvalidId';

/**
 * A Find Member answer of one version that carries the Coverage of another member than the one
 * matched: another member of the same insurer where there is one (a server that reads the wrong row
 * of its result). The other member differs in membership number, family name and birth date.
 */
function otherMembersCoverage(version: string): RowFault['reply'] {
  return async (reply, scope) => {
    if (versionOf(scope) !== version || reply.status >= 300 || !isObject(reply.body)) return reply;
    if (reply.body.resourceType !== 'Coverage') return reply;
    const members = await scope.repo.members();
    const matched = members.find((m) => m.coverageId === (reply.body as { id?: unknown }).id);
    if (!matched) return reply;
    const others = members.filter(
      (m) =>
        m.membershipNumber !== matched.membershipNumber &&
        m.family !== matched.family &&
        m.birthDate !== matched.birthDate,
    );
    const other = others.find((m) => m.insurer === matched.insurer) ?? others[0];
    return other ? { ...reply, body: coverageOf(other) } : reply;
  };
}

/** The resource with each extension whose URL ends with one of `names` written twice. */
function repeatExtensions(resource: JsonObject, names: readonly string[]): JsonObject {
  const extension = arr(resource.extension).flatMap((e) =>
    isObject(e) && typeof e.url === 'string' && names.some((n) => String(e.url).endsWith(`/${n}`))
      ? [e, { ...e }]
      : [e],
  );
  return { ...resource, extension };
}

/** The claims of a Get Remittance Details answer, provider by provider, rewritten. */
function mapBatchClaims(reply: SandboxReply, visit: (claims: JsonObject[]) => JsonObject[]): SandboxReply {
  if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.providers)) return reply;
  const providers = reply.body.providers.map((p) =>
    isObject(p) && Array.isArray(p.claims) ? { ...p, claims: visit(p.claims.filter(isObject)) } : p,
  );
  return withBody(reply, { ...reply.body, providers });
}

/** 2.5: the remittance-detail extensions of cardinality 1-1 and 0-1. */
const DETAIL_ONE_TO_ONE = ['invoiceNumber', 'invoiceDate', 'invoiceTotal', 'paidAmount', 'dateCompleted', 'createdOn'];
const DETAIL_AT_MOST_ONE = ['previousPaidAmount', 'shortAmount', 'collectionService'];
/** 2.4: the money extensions of a remittance summary. */
const SUMMARY_MONEY = ['amountDue', 'broughtForwarded', 'carriedForwarded', 'totalInvoiced', 'totalShortfall'];
/** 2.2: the Coverage extensions of cardinality 0-1. */
const COVERAGE_AT_MOST_ONE = ['groupId', 'expiryDate', 'coverType', 'benefitLimit', 'benefitUsed', 'currency'];

const isEmptyBundle = (reply: SandboxReply) =>
  reply.status === 200 &&
  isObject(reply.body) &&
  reply.body.resourceType === 'Bundle' &&
  arr(reply.body.entry).length === 0;

const SUMMARY = 'search-remittance-summary';
/** 4.4: the summary filters read on the summary itself (provider, total invoiced, reference, flags). */
const SUMMARY_OWN_FILTERS = [
  'provider',
  'amountInvoiced',
  'insurerPaymentReference',
  'hasShortFall',
  'excludeExported',
];
/** 4.4: the summary filters read on the summary's details (DEC-D1-69). */
const SUMMARY_DETAIL_FILTERS = ['invoiceNumber', 'patientName', 'membershipNumber'];
/** 4.5: the detail filters. */
const DETAIL_FILTER_NAMES = [
  'invoiceNumber',
  'patientName',
  'membershipNumber',
  'invoiceDate',
  'hospitalNumber',
  'insurerBillNumber',
  'invoiceTotal',
  'hasShortFall',
  '_since',
];
/** A form key the reference handler does not read: a filter a fault applies itself. */
const SET_ASIDE = 'set-aside:';

/**
 * The request with each named form field of a well-formed value moved to a key of its own, so that
 * the handler does not filter by it and the fault's data wrapper does (a malformed value stays, to
 * be refused as before).
 */
function setAsideFilters(operationId: string, names: readonly string[]): RowFault['request'] {
  return (req, scope) => {
    if (!scope.operations.includes(operationId)) return req;
    const params = operation(operationId).parameters;
    return withForm(req, (form) => {
      for (const name of names) {
        const p = params.find((pp) => pp.name === name);
        const v = (form.get(name) ?? '').trim();
        if (!p || v === '') continue;
        if (p.format === 'enum' ? !(p.values ?? []).includes(v) : !FORMATS[p.format](v)) continue;
        form.delete(name);
        form.set(SET_ASIDE + name, v);
      }
    });
  };
}

/** The filters a request set aside, as name and value. */
const setAsideOf = (form: URLSearchParams | undefined): [string, string][] =>
  [...(form ?? new URLSearchParams()).entries()]
    .filter(([k]) => k.startsWith(SET_ASIDE))
    .map(([k, v]) => [k.slice(SET_ASIDE.length), v]);

/**
 * Each form field whose value has not its documented form, read leniently: a comparator `gt`/`lt`
 * as `ge`/`le`, anything else left out as if absent (a server that ignores what it cannot parse).
 * Empty values and `_sort` are left as they are.
 */
function lenientForm(req: SandboxRequest, operationId: string): SandboxRequest {
  const params = operation(operationId).parameters.filter((p) => p.in === 'form' && p.format !== 'string');
  return withForm(req, (form) => {
    for (const p of params) {
      const v = (form.get(p.name) ?? '').trim();
      if (v === '' || p.name === '_sort') continue;
      const ok = p.format === 'enum' ? (p.values ?? []).includes(v) : FORMATS[p.format](v);
      if (ok) continue;
      const read = p.format === 'comparator-decimal' ? v.replace(/^gt/, 'ge').replace(/^lt/, 'le') : '';
      if (read !== '' && FORMATS[p.format](read)) form.set(p.name, read);
      else form.delete(p.name);
    }
  });
}

/** Acknowledged batches a sandbox keeps readable by Get (per sandbox: keyed by its unwrapped data). */
const keptAfterAck = new WeakMap<Repository, Map<string, Batch>>();

export const D1_ROW_FAULTS: readonly RowFault[] = [
  {
    name: 'find-member-v1-answers-other-member',
    kind: 'wrong-record',
    rule: "D1 1 / 4.1: exactly one match returns that member's Coverage",
    description:
      'Version 1 answers a single match with the Coverage of another member of the same insurer (another membership number, name and birth date).',
    operations: FIND_MEMBER,
    expectedCheck: 'coverage-matches-search',
    rows: ['D1-1-01', 'D1-4.1-12'],
    reply: otherMembersCoverage('1'),
  },
  {
    name: 'find-member-v2-answers-other-member',
    kind: 'wrong-record',
    rule: "D1 1 / 4.2: step 1 with one match returns that member's Coverage",
    description:
      'Version 2 answers a single match with the Coverage of another member, of the same insurer where there is one (another name and birth date).',
    operations: FIND_MEMBER,
    expectedCheck: 'coverage-matches-search',
    rows: ['D1-1-01', 'D1-4.2-07'],
    reply: otherMembersCoverage('2'),
  },
  {
    name: 'batch-get-removes-it',
    kind: 'state',
    rule: 'D1 3: without the acknowledgement the batch keeps being returned (a Get does not remove it)',
    description: 'Get Remittance Details answers the batch and removes it from the pending list, as if acknowledged.',
    operations: [GET],
    expectedCheck: 'batch-still-listed',
    rows: ['D1-3-03'],
    repo: (repo) => ({
      ...repo,
      pendingBatch: async (siteId, id) => {
        const batch = await repo.pendingBatch(siteId, id);
        if (batch) await repo.removeBatch(batch.id);
        return batch;
      },
    }),
  },
  {
    name: 'pending-list-dequeues',
    kind: 'state',
    rule: 'D1 3: without the acknowledgement the batch keeps being returned (listing does not remove it)',
    description:
      'List Pending Remittances hands out each batch once: the batches of a page are removed from the pending list as they are listed.',
    operations: [LIST],
    expectedCheck: 'batch-still-listed',
    rows: ['D1-3-03'],
    reply: async (reply, scope) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      for (const e of reply.body.entry) {
        const id = isObject(e) && isObject(e.resource) ? e.resource.id : undefined;
        if (typeof id === 'string') await scope.repo.removeBatch(id);
      }
      return reply;
    },
  },
  {
    name: 'ack-idempotent-for-unknown-id',
    kind: 'state',
    rule: 'D1 3 / 4.8 / 7: an Ack whose id matches nothing (unknown or already acknowledged) gives InvalidId',
    description:
      'Ack Remittance Receipt treats the DELETE as idempotent: an id that matches no pending batch, unknown or already acknowledged, is answered 200 without a payload.',
    operations: [ACK],
    expectedCheck: 'invalid-id-answer',
    rows: ['D1-4.8-03', 'D1-3-04', 'D1-3-05'],
    reply: (reply) => (isInvalidId(reply) ? { status: 200 } : reply),
  },
  {
    name: 'acknowledged-batch-still-readable',
    kind: 'state',
    rule: 'D1 3 / 7: a Get of an already removed (acknowledged) id gives InvalidId',
    description:
      'An acknowledged batch leaves the pending list but Get Remittance Details still serves it (the acknowledgement only flags it).',
    operations: [GET, ACK],
    expectedCheck: 'invalid-id-answer',
    rows: ['D1-3-07'],
    repo: (repo, scope) => {
      const kept = keptAfterAck.get(scope.repo) ?? new Map<string, Batch>();
      keptAfterAck.set(scope.repo, kept);
      if (scope.operations.includes(ACK))
        return {
          ...repo,
          removeBatch: async (id) => {
            const batch = await repo.pendingBatch(undefined, id);
            const removed = await repo.removeBatch(id);
            if (removed && batch) kept.set(id, batch);
            return removed;
          },
        };
      return {
        ...repo,
        pendingBatch: async (siteId, id) => {
          const old = kept.get(id);
          return (
            (await repo.pendingBatch(siteId, id)) ??
            (old && (siteId === undefined || old.siteId === siteId) ? old : undefined)
          );
        },
      };
    },
  },
  {
    name: 'ack-unknown-id-removes-oldest',
    kind: 'state',
    rule: 'D1 3: an Ack whose id matches nothing leaves the state unchanged',
    description:
      "Ack Remittance Receipt with an id that matches no batch still answers InvalidId, but receipts the site's oldest pending batch (a fallback to the head of the queue).",
    operations: [ACK],
    expectedCheck: 'pending-list-unchanged',
    rows: ['D1-3-04', 'D1-3-08'],
    repo: (repo) => ({
      ...repo,
      pendingBatch: async (siteId, id) => {
        const batch = await repo.pendingBatch(siteId, id);
        if (batch) return batch;
        const [oldest] = await repo.pendingBatches(siteId);
        if (oldest) await repo.removeBatch(oldest.id);
        return undefined;
      },
    }),
  },
  {
    name: 'coverage-optional-extension-repeated',
    kind: 'content',
    rule: 'D1 2.2: every extension of cardinality 0-1 appears at most once',
    description:
      'The Coverage writes each of its 0-1 extensions groupId, expiryDate, coverType, benefitLimit, benefitUsed and currency twice.',
    operations: FIND_MEMBER,
    expectedCheck: 'extension-cardinality',
    rows: ['D1-2.2-23'],
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'Coverage', (r) => repeatExtensions(r, COVERAGE_AT_MOST_ONE)),
      ),
  },
  {
    name: 'detail-one-to-one-extensions-repeated',
    kind: 'content',
    rule: 'D1 2.5: invoiceNumber, invoiceDate, invoiceTotal, paidAmount, dateCompleted and createdOn are each 1-1',
    description: 'Each remittance detail writes its 1-1 extensions twice.',
    operations: [DETAIL],
    expectedCheck: 'entry-extension-cardinality',
    rows: ['D1-2.5-04', 'D1-2.5-09'],
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'ClaimResponse', (r) => repeatExtensions(r, DETAIL_ONE_TO_ONE)),
      ),
  },
  {
    name: 'detail-optional-extensions-repeated',
    kind: 'content',
    rule: 'D1 2.5: previousPaidAmount, shortAmount and collectionService are each 0-1',
    description:
      'Each remittance detail writes the 0-1 extensions it carries (previousPaidAmount, shortAmount, collectionService) twice.',
    operations: [DETAIL],
    expectedCheck: 'entry-extension-cardinality',
    rows: ['D1-2.5-05', 'D1-2.5-08'],
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'ClaimResponse', (r) => repeatExtensions(r, DETAIL_AT_MOST_ONE)),
      ),
  },
  {
    name: 'cuid-numbered-across-providers',
    kind: 'content',
    rule: 'D1 2.6 / DEC-D1-41: cuid is sequential and contiguous from 1 per provider',
    description:
      "A batch numbers its claims' cuid across the whole batch: the second provider's claims go on from the first's last number instead of starting at 1.",
    operations: [GET],
    expectedCheck: 'cuid-contiguous-per-provider',
    rows: ['D1-2.6-15'],
    reply: (reply) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.providers)) return reply;
      let next = 1;
      const providers = reply.body.providers.map((p) =>
        isObject(p) && Array.isArray(p.claims)
          ? {
              ...p,
              claims: p.claims.map((c) =>
                isObject(c) && isObject(c.cuid) ? { ...c, cuid: { ...c.cuid, id: String(next++) } } : c,
              ),
            }
          : p,
      );
      return withBody(reply, { ...reply.body, providers });
    },
  },
  {
    name: 'claim-short-pay-both-styles',
    kind: 'content',
    rule: 'D1 2.6 / DEC-D1-42: one claim carries only one short-payment style',
    description: 'A batch claim with coded short-payment reasons (shortPay) also carries them compound (shortPayEx).',
    // The batch is reached from the listing: its shape rows are judged with the listing selected.
    operations: [LIST, GET],
    expectedCheck: 'matches-schema',
    rows: ['D1-2.6-18'],
    reply: (reply) =>
      mapBatchClaims(reply, (claims) =>
        claims.map((c) =>
          Array.isArray(c.shortPay) && c.shortPay.length > 0
            ? {
                ...c,
                shortPayEx: c.shortPay.map((sp) => ({ shortPay: sp, amount: c.shortAmount, reason: 'Short payment' })),
              }
            : c,
        ),
      ),
  },
  {
    name: 'empty-result-as-404',
    kind: 'status',
    rule: 'D1 4.9 / 4.10 / 4.11 / 7: hospital-claim and bill operations return an empty bundle when nothing is found',
    description:
      'Get Hospital Claims List, Search Hospital Claims and Search Bills answer a result without entries with 404 and an OperationOutcome instead of an empty bundle.',
    operations: ['list-hospital-claims', 'search-hospital-claims', 'search-bills'],
    expectedCheck: 'success-status',
    rows: ['D1-4.9-04', 'D1-4.10-06', 'D1-4.11-06', 'D1-7-22'],
    reply: (reply) =>
      isEmptyBundle(reply) ? { status: 404, body: operationOutcome('MSG_NOT_FOUND', 'No claims found') } : reply,
  },
  {
    name: 'detail-unknown-summary-answers-another',
    kind: 'wrong-record',
    rule: 'D1 4.5 / DEC-D1-28: an unknown remittance_summary_id is refused or answered with an empty bundle',
    description:
      "Search Remittance Detail with a summary id the site does not hold answers the details of the site's first summary.",
    operations: [DETAIL],
    expectedCheck: 'filter-excludes-all',
    rows: ['D1-4.5-02'],
    request: async (req, { repo }) => {
      const site = req.headers['su-siteid'] ?? '';
      const id = req.params.remittance_summary_id ?? '';
      if (await repo.remittanceSummary(site, id)) return req;
      const [first] = await repo.remittanceSummaries(site);
      return first ? { ...req, params: { ...req.params, remittance_summary_id: first.id } } : req;
    },
  },
  {
    name: 'authorisation-search-needs-a-filter',
    kind: 'status',
    rule: 'D1 4.3: all fields are optional: a request without fields is answered with a Bundle',
    description:
      'Search Authorisation refuses a request that names no filter field (paging only) with 400 MSG_MISSING_MANDATORY_PARAM.',
    operations: ['search-authorisation'],
    expectedCheck: 'success-status',
    rows: ['D1-4.3-02'],
    reply: (reply, { request }) => {
      const form = request.form ?? new URLSearchParams();
      const named = [...form.keys()].filter((k) => !['page', 'count', '_sort'].includes(k) && form.get(k) !== '');
      return reply.status === 200 && named.length === 0
        ? {
            status: 400,
            body: operationOutcome('MSG_MISSING_MANDATORY_PARAM', 'At least one search field is required'),
          }
        : reply;
    },
  },
  {
    name: 'hospital-list-needs-date',
    kind: 'status',
    rule: 'D1 4.9: dateCompleted is optional: a request without it is answered with a Bundle',
    description: 'Get Hospital Claims List refuses a request without dateCompleted with 400.',
    operations: ['list-hospital-claims'],
    expectedCheck: 'success-status',
    rows: ['D1-4.9-02'],
    reply: (reply, { request }) =>
      reply.status === 200 && (request.query.get('dateCompleted') ?? '') === ''
        ? { status: 400, body: operationOutcome('MSG_MISSING_MANDATORY_PARAM', 'dateCompleted is required') }
        : reply,
  },
  {
    name: 'find-member-v1-retired',
    kind: 'status',
    rule: 'D1 4.1: version 1 stays functional until further notice',
    description:
      'The deprecated version 1 is switched off: every version-1 request that would be served is answered 410 with an OperationOutcome telling the caller to migrate.',
    operations: FIND_MEMBER,
    expectedCheck: 'success-status',
    rows: ['D1-4.1-03'],
    reply: (reply, scope) =>
      versionOf(scope) === '1' && reply.status < 300
        ? {
            status: 410,
            body: operationOutcome('MSG_PARAM_INVALID', 'Version 1 is retired: use version 2', ['Coverage']),
          }
        : reply,
  },
  {
    name: 'find-member-v1-multiple-match-first-member',
    kind: 'wrong-record',
    rule: 'D1 4.1 / 7: several matches return an OperationOutcome with MULTIPLE_MATCH_FOUND',
    description:
      "Version 1 answers a search that matches several members with the first member's Coverage instead of MULTIPLE_MATCH_FOUND.",
    operations: FIND_MEMBER,
    expectedCheck: 'error-status-and-code',
    rows: ['D1-4.1-14'],
    reply: async (reply, scope) => {
      if (versionOf(scope) !== '1' || errorCodeOf(reply.body) !== 'MULTIPLE_MATCH_FOUND') return reply;
      const form = scope.request.form ?? new URLSearchParams();
      const same = (a: string, b: string | null) => b === null || a.toLowerCase() === b.trim().toLowerCase();
      const first = (await scope.repo.members()).find(
        (m) =>
          same(m.insurer, form.get('insurerIdentifier')) &&
          same(m.family, form.get('lastName')) &&
          same(m.birthDate, form.get('dateOfBirth')) &&
          same(m.membershipNumber, form.get('membershipNumber')),
      );
      return first ? { status: 200, body: coverageOf(first) } : reply;
    },
  },
  {
    name: 'pending-list-ids-not-fetchable',
    kind: 'wrong-record',
    rule: 'D1 1 / 4.7: every id the pending list returns can be fetched',
    description:
      'The pending list names each batch by its message id (msgId) instead of the batch id, which Get Remittance Details refuses as InvalidId.',
    // The listed ids are fetched by Get, where their refusal shows.
    operations: [LIST, GET],
    expectedCheck: 'success-status',
    rows: ['D1-1-04'],
    reply: async (reply, scope) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const batches = await scope.repo.pendingBatches(undefined);
      const entry = reply.body.entry.map((e) => {
        if (!isObject(e) || !isObject(e.resource)) return e;
        const batch = batches.find((b) => b.id === (e.resource as JsonObject).id);
        return batch ? { ...e, resource: { ...e.resource, id: batch.msgId } } : e;
      });
      return withBody(reply, { ...reply.body, entry });
    },
  },
  {
    name: 'hospital-claims-patient-entries',
    kind: 'content',
    rule: 'D1 2.7: hospital-claim bundle entries are Encounter and Claim resources',
    description:
      'Get Hospital Claims List and Search Hospital Claims add a Patient entry for the patient of each Claim.',
    operations: ['list-hospital-claims', 'search-hospital-claims'],
    expectedCheck: 'matches-schema',
    rows: ['D1-2.7-01'],
    reply: (reply) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const entry = reply.body.entry.flatMap((e) => {
        const r = isObject(e) && isObject(e.resource) ? e.resource : undefined;
        if (r?.resourceType !== 'Claim') return [e];
        const name = isObject(r.patient) ? r.patient.display : undefined;
        return [e, { resource: { resourceType: 'Patient', id: `patient-of-${String(r.id)}`, name: [{ text: name }] } }];
      });
      return withBody(reply, { ...reply.body, entry });
    },
  },
  {
    name: 'pre-auth-status-all-refused',
    kind: 'value',
    rule: 'D1 3 / 4.3: the pre-authorisation status filter values are Active, Closed, Cancelled and All',
    description:
      'Search Authorisation knows only the stored statuses Active, Closed and Cancelled: preAuthStatus=All is refused with 422 MSG_PARAM_INVALID.',
    operations: ['search-authorisation'],
    expectedCheck: 'success-status',
    rows: ['D1-3-09'],
    reply: (reply, { request }) =>
      (request.form?.get('preAuthStatus') ?? '').trim().toLowerCase() === 'all'
        ? {
            status: 422,
            body: operationOutcome('MSG_PARAM_INVALID', 'preAuthStatus must be Active, Closed or Cancelled'),
          }
        : reply,
  },
  {
    name: 'action-status-with-provider-refused',
    kind: 'value',
    rule: 'D1 3 / 4.3: the action status values are `with insurer` and `with provider`',
    description:
      'Search Authorisation refuses actionStatus=`with provider` with 422 MSG_PARAM_INVALID (only `with insurer` is served).',
    operations: ['search-authorisation'],
    expectedCheck: 'success-status',
    rows: ['D1-3-10'],
    reply: (reply, { request }) =>
      (request.form?.get('actionStatus') ?? '').trim().toLowerCase() === 'with provider'
        ? { status: 422, body: operationOutcome('MSG_PARAM_INVALID', 'actionStatus must be with insurer') }
        : reply,
  },
  {
    name: 'get-bill-archived-not-found',
    kind: 'wrong-record',
    rule: 'D1 4.12: isArchived true with the id of an archived bill returns that Claim',
    description:
      'Get Bill looks only among live bills: an archived bill asked for with isArchived=true is answered 404.',
    operations: ['get-bill'],
    expectedCheck: 'success-status',
    rows: ['D1-4.12-03'],
    reply: (reply, { request }) =>
      reply.status === 200 && request.params.isArchived === 'true'
        ? { status: 404, body: operationOutcome('MSG_NOT_FOUND', `No live bill ${request.params.claimId ?? ''}`) }
        : reply,
  },
  {
    name: 'get-bill-answers-members-first-bill',
    kind: 'wrong-record',
    rule: 'D1 4.12 / DEC-D1-31: isArchived false with the id of a live bill returns that Claim',
    description: "Get Bill keys live bills by member: the id of a member's later bill answers the member's first bill.",
    operations: ['get-bill'],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.12-02'],
    request: async (req, { repo }) => {
      if (req.params.isArchived !== 'false') return req;
      const bills = await repo.bills();
      const asked = bills.find((b) => b.id === req.params.claimId);
      const first = asked && bills.find((b) => !b.archived && b.membershipNumber === asked.membershipNumber);
      return first ? { ...req, params: { ...req.params, claimId: first.id } } : req;
    },
  },
  {
    name: 'summary-search-answers-details',
    kind: 'wrong-record',
    rule: 'D1 1 / 4.4: Search Remittance Summary answers a Bundle of PaymentReconciliation resources',
    description:
      'Search Remittance Summary answers each matched summary with its first remittance detail (a ClaimResponse) in place of the PaymentReconciliation.',
    operations: ['search-remittance-summary'],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.4-20', 'D1-1-03'],
    reply: async (reply, { repo }) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const entry = [];
      for (const e of reply.body.entry) {
        const id = isObject(e) && isObject(e.resource) ? e.resource.id : undefined;
        const [first] = typeof id === 'string' ? await repo.remittanceDetails(id) : [];
        entry.push(first ? { ...(e as JsonObject), resource: claimResponseOf(first) } : e);
      }
      return withBody(reply, { ...reply.body, entry });
    },
  },
  {
    name: 'detail-search-answers-summary',
    kind: 'wrong-record',
    rule: 'D1 1 / 4.5: Search Remittance Detail answers a Bundle of ClaimResponse resources',
    description:
      'Search Remittance Detail answers the remittance summary itself (a PaymentReconciliation) as its one entry instead of its details.',
    operations: [DETAIL],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.5-14', 'D1-1-03'],
    reply: async (reply, { request, repo }) => {
      if (reply.status !== 200 || !isObject(reply.body) || arr(reply.body.entry).length === 0) return reply;
      const summary = await repo.remittanceSummary(
        request.headers['su-siteid'] ?? '',
        request.params.remittance_summary_id ?? '',
      );
      if (!summary) return reply;
      return withBody(reply, { ...reply.body, total: 1, entry: [{ resource: paymentReconciliationOf(summary) }] });
    },
  },
  {
    name: 'summary-extension-urls-two-bases',
    kind: 'content',
    rule: 'D1 2.4: remittance summary extension URLs have the form {clearing_ext_url}/<name>',
    description:
      'A remittance summary writes its money extensions (amountDue, broughtForwarded, carriedForwarded, totalInvoiced, totalShortfall) under the Coverage form {ref_url}/extension/<name>, the others under {clearing_ext_url}/<name>.',
    operations: ['search-remittance-summary'],
    expectedCheck: 'summary-extension-urls',
    rows: ['D1-2.4-07'],
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'PaymentReconciliation', (r) => ({
          ...r,
          extension: arr(r.extension).map((e) => {
            if (!isObject(e) || typeof e.url !== 'string') return e;
            const name = e.url.slice(e.url.lastIndexOf('/') + 1);
            return SUMMARY_MONEY.includes(name) ? { ...e, url: refExtension(name) } : e;
          }),
        })),
      ),
  },
  {
    name: 'batch-get-answers-list-header',
    kind: 'shape',
    rule: 'D1 2.6 / 4.7: Get Remittance Details answers the batch object of 2.6',
    description:
      'Get Remittance Details answers the batch header of the pending list (a Bundle with the batch `id` and `timestamp`) instead of the batch object (msgId, msgIssueDate, msgSender, msgRecipient, providers).',
    operations: [GET],
    expectedCheck: 'matches-schema',
    rows: ['D1-4.7-02'],
    reply: async (reply, { request, repo }) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.providers)) return reply;
      const batch = await repo.pendingBatch(undefined, request.params.id ?? '');
      return batch ? withBody(reply, batchHeaderOf(batch)) : reply;
    },
  },
  {
    name: 'hospital-search-patient-not-applied',
    kind: 'filter',
    rule: 'D1 4.10 / DEC-D1-29: the claims returned belong to a patient named `patientLastName`',
    description:
      'Search Hospital Claims does not read `patientLastName` and `patientDateOfBirth`: it answers every claim rendered on `dateCompleted` at `treatmentSiteName`, whoever the patient (and serves a request without the two).',
    operations: [SEARCH_HOSPITAL],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.10-04'],
    served: (op) =>
      op.id !== SEARCH_HOSPITAL
        ? op
        : {
            ...op,
            parameters: op.parameters.map((p) => (PATIENT_FIELDS.includes(p.name) ? { ...p, required: false } : p)),
          },
    request: (req) => {
      if (!PATIENT_FIELDS.some((f) => req.query.has(f))) return req;
      const query = new URLSearchParams(req.query);
      for (const f of PATIENT_FIELDS) query.delete(f);
      return { ...req, query };
    },
  },
  {
    name: 'hospital-search-serviced-date-day-early',
    kind: 'value',
    rule: 'D1 4.10 / DEC-D1-29: the claims returned were rendered on `dateCompleted`',
    description:
      "Search Hospital Claims finds the claims but writes each Claim's `item[].servicedDate` one day early (a day stored as local midnight and written in UTC): the claims answered for a day read as rendered the day before.",
    operations: [SEARCH_HOSPITAL],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.10-04'],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : withBody(
            reply,
            mapResources(reply.body, 'Claim', (r) => ({
              ...r,
              item: arr(r.item).map((i) =>
                isObject(i) && typeof i.servicedDate === 'string'
                  ? { ...i, servicedDate: dayBefore(i.servicedDate) }
                  : i,
              ),
            })),
          ),
  },
  {
    name: 'find-member-v1-accepts-v2-insurer',
    kind: 'validation',
    rule: 'D1 4.1 / DEC-D1-19: version 1 refuses an insurer outside its list (`cin`, which only version 2 serves)',
    description:
      'Version 1 serves every insurer of version 2 too: a search with `cin` is answered like any other (the Coverage of the one member it matches).',
    operations: FIND_MEMBER,
    expectedCheck: 'request-refused',
    rows: ['D1-4.1-07'],
    served: (op) =>
      op.id !== 'find-member-v1'
        ? op
        : {
            ...op,
            parameters: op.parameters.map((p) =>
              p.name === 'insurerIdentifier'
                ? { ...p, values: [...new Set([...(p.values ?? []), ...FIND_MEMBER_V2_INSURERS])] }
                : p,
            ),
          },
  },
  {
    name: 'find-member-drops-unreadable-fields',
    kind: 'validation',
    rule: 'D1 4.1 / 4.2 / 7: a missing or empty required field is refused with MSG_MISSING_MANDATORY_PARAM (400), a malformed date with MSG_PARAM_INVALID (422)',
    description:
      'Find Member searches with what it can read: version 1 defaults a missing insurerIdentifier to `bup` (the first of its list), version 2 searches without a missing or empty required field, and both leave out a date that is not YYYY-MM-DD.',
    operations: FIND_MEMBER,
    expectedCheck: 'error-status-and-code',
    rows: ['D1-4.1-06', 'D1-4.1-09', 'D1-4.2-03', 'D1-4.2-04', 'D1-4.2-06', 'D1-7-03', 'D1-7-04'],
    served: (op) =>
      op.id === 'find-member-v2' ? { ...op, parameters: op.parameters.map((p) => ({ ...p, required: false })) } : op,
    request: (req) =>
      withForm(req, (form) => {
        for (const [k, v] of [...form.entries()]) if (v.trim() === '') form.delete(k);
        for (const name of ['dateOfBirth', 'policyActiveOn']) {
          const v = form.get(name);
          if (v !== null && !isDate(v.trim())) form.delete(name);
        }
        if ((req.headers['svc-api-version'] ?? '').trim() === '1' && !form.has('insurerIdentifier'))
          form.set('insurerIdentifier', 'bup');
      }),
  },
  {
    name: 'find-member-missing-field-as-invalid',
    kind: 'status',
    rule: 'D1 7 / DEC-D1-76: a missing mandatory parameter is refused with its tied code MSG_MISSING_MANDATORY_PARAM',
    description:
      'Find Member refuses a missing required field with the code of invalid content, MSG_PARAM_INVALID at its status 422 (a documented pair, but not the one the table ties to a missing parameter).',
    operations: FIND_MEMBER,
    // The coverage phase sends each required field missing at every seed; the generated invalid
    // request of invalid-request-answered is a missing field only at some (seed 1611291344 not).
    expectedCheck: 'coverage-phase-served',
    rows: ['D1-7-26'],
    reply: (reply) =>
      reply.status === 400 && errorCodeOf(reply.body) === 'MSG_MISSING_MANDATORY_PARAM'
        ? { status: 422, body: operationOutcome('MSG_PARAM_INVALID', 'A search field is invalid', ['Coverage']) }
        : reply,
  },
  {
    name: 'find-member-reads-json-body',
    kind: 'validation',
    rule: 'D1 4 / 7: the body is form-encoded; content that cannot be processed is refused (MSG_CANT_PARSE_CONTENT)',
    description:
      'Find Member reads a JSON object body as the search fields, whatever the Content-Type says, and answers it like the form.',
    operations: FIND_MEMBER,
    expectedCheck: 'request-refused',
    rows: ['D1-7-05', 'D1-4-02'],
    request: (req) => {
      const text = req.rawBody.trim();
      if (!text.startsWith('{')) return req;
      try {
        const body: unknown = JSON.parse(text);
        if (!isObject(body)) return req;
        const form = new URLSearchParams();
        for (const [k, v] of Object.entries(body)) if (typeof v === 'string') form.set(k, v);
        return { ...req, form };
      } catch {
        return req;
      }
    },
  },
  {
    name: 'summary-filters-negated',
    kind: 'filter',
    rule: 'D1 4.4: provider, amountInvoiced, insurerPaymentReference, hasShortFall and excludeExported keep the matching summaries',
    description:
      'Search Remittance Summary applies provider, amountInvoiced, insurerPaymentReference, hasShortFall and excludeExported negated: it keeps the summaries that do not match them.',
    operations: [SUMMARY],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.4-04', 'D1-4.4-11', 'D1-4.4-12', 'D1-4.4-14', 'D1-4.4-15'],
    request: setAsideFilters(SUMMARY, SUMMARY_OWN_FILTERS),
    repo: (repo, { request }) => ({
      ...repo,
      remittanceSummaries: async (siteId) => {
        const all = await repo.remittanceSummaries(siteId);
        const negated = setAsideOf(request.form);
        if (negated.length === 0) return all;
        const kept = [];
        for (const summary of all) {
          const s = { summary, details: await repo.remittanceDetails(summary.id) };
          if (negated.every(([name, v]) => !SUMMARY_FILTERS[name](s, v))) kept.push(summary);
        }
        return kept;
      },
    }),
  },
  {
    name: 'summary-detail-filters-any-detail-differs',
    kind: 'filter',
    rule: 'D1 4.4 / DEC-D1-69: invoiceNumber, patientName and membershipNumber keep the summaries with a matching detail',
    description:
      'Search Remittance Summary keeps, for invoiceNumber, patientName and membershipNumber, every summary with a detail that does not match (the test of each detail negated): a value no detail holds returns every summary.',
    operations: [SUMMARY],
    expectedCheck: 'filter-excludes-all',
    rows: ['D1-4.4-05', 'D1-4.4-06', 'D1-4.4-07'],
    request: setAsideFilters(SUMMARY, SUMMARY_DETAIL_FILTERS),
    repo: (repo, { request }) => ({
      ...repo,
      remittanceSummaries: async (siteId) => {
        const all = await repo.remittanceSummaries(siteId);
        const filters = setAsideOf(request.form);
        if (filters.length === 0) return all;
        const kept = [];
        for (const summary of all) {
          const details = await repo.remittanceDetails(summary.id);
          if (filters.every(([name, v]) => details.some((d) => !DETAIL_FILTERS[name](d, v)))) kept.push(summary);
        }
        return kept;
      },
    }),
  },
  {
    name: 'detail-filters-negated',
    kind: 'filter',
    rule: 'D1 4.5: each detail filter keeps the matching details',
    description:
      'Search Remittance Detail applies invoiceNumber, patientName, membershipNumber, invoiceDate, hospitalNumber, insurerBillNumber, invoiceTotal, hasShortFall and _since negated: it keeps the details that do not match them.',
    operations: [DETAIL],
    expectedCheck: 'entries-match-filter',
    rows: [
      'D1-4.5-03',
      'D1-4.5-04',
      'D1-4.5-05',
      'D1-4.5-06',
      'D1-4.5-07',
      'D1-4.5-08',
      'D1-4.5-09',
      'D1-4.5-10',
      'D1-4.5-13',
    ],
    request: setAsideFilters(DETAIL, DETAIL_FILTER_NAMES),
    repo: (repo, { request, operations }) =>
      operations.includes(DETAIL)
        ? {
            ...repo,
            remittanceDetails: async (summaryId) => {
              const all = await repo.remittanceDetails(summaryId);
              const negated = setAsideOf(request.form);
              return all.filter((d) => negated.every(([name, v]) => !DETAIL_FILTERS[name](d, v)));
            },
          }
        : repo,
  },
  {
    name: 'remittance-search-lenient-values',
    kind: 'validation',
    rule: 'D1 7 / DEC-D1-24: a malformed or invalid value is refused with a code of the table at its status',
    description:
      'Search Remittance Summary and Detail read what they cannot parse leniently: a comparator gt/lt as ge/le, and a malformed date range, comparator, Boolean or number left out as if absent; the search is answered.',
    operations: [SUMMARY, DETAIL],
    expectedCheck: 'error-status-and-code',
    rows: ['D1-7-09', 'D1-7-11', 'D1-7-15'],
    request: (req, scope) => {
      const id = [SUMMARY, DETAIL].find((o) => scope.operations.includes(o));
      return id ? lenientForm(req, id) : req;
    },
  },
  {
    name: 'authorisation-status-inverted',
    kind: 'filter',
    rule: 'D1 4.3 / DEC-D1-39: status read (unread) returns the records of that read status',
    description:
      'Search Authorisation reads the status filter inverted: `read` returns the unread records and `unread` the read ones.',
    operations: ['search-authorisation'],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.3-06'],
    request: (req) =>
      withParameter(req, 'status', (v) => (v.trim() === 'read' ? 'unread' : v.trim() === 'unread' ? 'read' : v)),
  },
  {
    name: 'authorisation-descending-sort-refused',
    kind: 'value',
    rule: 'D1 4.3: `_sort` takes issueDate and -issueDate',
    description: 'Search Authorisation sorts ascending only: `_sort=-issueDate` is refused with 422 MSG_PARAM_INVALID.',
    operations: ['search-authorisation'],
    expectedCheck: 'success-status',
    rows: ['D1-4.3-11'],
    reply: (reply, { request }) =>
      (request.form?.get('_sort') ?? '').trim() === '-issueDate'
        ? { status: 422, body: operationOutcome('MSG_PARAM_INVALID', '_sort must be issueDate') }
        : reply,
  },
  {
    name: 'pending-list-pages-wrap-round',
    kind: 'paging',
    rule: 'D1 4.6: a page that matches nothing is an empty result set',
    description:
      'List Pending Remittances takes the page number modulo the number of pages: a page past the last answers the batches of a page within the list again.',
    operations: [LIST],
    expectedCheck: 'page-within-count',
    rows: ['D1-4.6-06'],
    request: async (req, { repo }) => {
      const page = Number(req.query.get('page') ?? '1');
      const count = Number(req.query.get('count') ?? String(DEFAULT_COUNT));
      if (!Number.isInteger(page) || !Number.isInteger(count) || page <= 1 || count < 1) return req;
      const pages = Math.max(1, Math.ceil((await repo.pendingBatches(undefined)).length / count));
      return page > pages ? withQuery(req, (q) => q.set('page', String(((page - 1) % pages) + 1))) : req;
    },
  },
  {
    name: 'hospital-search-missing-fields-optional',
    kind: 'validation',
    rule: 'D1 4.10 / DEC-D1-13: a request missing any of the four parameters is refused with a 4xx status',
    description:
      'Search Hospital Claims treats its four parameters as optional, as Get Hospital Claims List does: a missing one does not restrict and the search is answered.',
    operations: [SEARCH_HOSPITAL],
    expectedCheck: 'request-refused',
    rows: ['D1-4.10-02'],
    served: (op) =>
      op.id === SEARCH_HOSPITAL ? { ...op, parameters: op.parameters.map((p) => ({ ...p, required: false })) } : op,
  },
  {
    name: 'bills-search-every-insurer',
    kind: 'validation',
    rule: 'D1 4.11 / DEC-D1-13: a request without insurerid is refused with a 4xx status',
    description: 'Search Bills without insurerid searches the bills of every insurer.',
    operations: ['search-bills'],
    expectedCheck: 'request-refused',
    rows: ['D1-4.11-02'],
    served: (op) =>
      op.id === 'search-bills'
        ? { ...op, parameters: op.parameters.map((p) => (p.name === 'insurerid' ? { ...p, required: false } : p)) }
        : op,
  },
  {
    name: 'bills-search-filters-or',
    kind: 'filter',
    rule: 'D1 4.11 / DEC-D1-30: membershipNumber and invoiceNumber restrict the bills of the insurer',
    description:
      "Search Bills combines its filters with OR: a bill is kept when it is of the insurer or matches membershipNumber or invoiceNumber, so a filter keeps the insurer's other bills.",
    operations: ['search-bills'],
    expectedCheck: 'entries-match-filter',
    rows: ['D1-4.11-03'],
    reply: async (reply, { request, repo }) => {
      if (reply.status !== 200) return reply;
      const named = ['insurerid', 'membershipNumber', 'invoiceNumber', 'cuid']
        .map((n) => [n, (request.query.get(n) ?? '').trim()] as const)
        .filter(([, v]) => v !== '');
      if (!named.some(([n]) => n === 'membershipNumber' || n === 'invoiceNumber')) return reply;
      const field = {
        insurerid: 'insurer',
        membershipNumber: 'membershipNumber',
        invoiceNumber: 'invoiceNumber',
        cuid: 'cuid',
      } as const;
      const bills = (await repo.bills()).filter((b) =>
        named.some(([n, v]) => sameText(String(b[field[n as keyof typeof field]] ?? ''), v)),
      );
      return withBody(
        reply,
        singlePageBundle(
          'searchset',
          bills.map((b) => ({ resource: billOf(b, false) })),
        ),
      );
    },
  },
  {
    name: 'get-bill-lenient',
    kind: 'validation',
    rule: 'D1 4.12 / DEC-D1-13 / DEC-D1-31: an unknown claimId, and an isArchived other than true or false, are refused with a 4xx status',
    description:
      'Get Bill reads any isArchived other than `true` as `false`, and answers an unknown claimId with 200 and an empty Bundle.',
    operations: ['get-bill'],
    expectedCheck: 'request-refused',
    rows: ['D1-4.12-04', 'D1-4.12-06'],
    request: (req) => {
      const flag = req.params.isArchived;
      return flag === undefined || flag === 'true' || flag === 'false'
        ? req
        : { ...req, params: { ...req.params, isArchived: 'false' } };
    },
    reply: async (reply, { request, repo }) =>
      reply.status === 404 && !(await repo.bill(request.params.claimId ?? ''))
        ? { status: 200, body: singlePageBundle('searchset', []) }
        : reply,
  },
];
