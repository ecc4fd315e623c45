/**
 * Variants of Document 1 (remittance search, hospital claims, bills; FHIR forms common to Document 1): choices its text or spec/decisions.md allow. See ./types.ts.
 */
import { operation } from '../../spec/operations.ts';
import type { RemittanceDetail } from '../repo/model.ts';
import { bearerOf, mediaType } from '../router/auth.ts';
import { operationOutcome } from '../router/errors.ts';
import type { SandboxReply } from '../router/types.ts';
import {
  arr,
  errorCodeOf,
  isObject,
  mapObjects,
  mapResources,
  nullWhereAbsent,
  withForm,
  type JsonObject,
} from '../modifiers/json.ts';
import type { Variant } from './types.ts';

const SUMMARY = 'search-remittance-summary';
const DETAIL = 'search-remittance-detail';
const REMITTANCE = [SUMMARY, DETAIL];
const LIST_HC = 'list-hospital-claims';
const SEARCH_HC = 'search-hospital-claims';
const HOSPITAL = [LIST_HC, SEARCH_HC];
const SEARCH_BILLS = 'search-bills';
const GET_BILL = 'get-bill';
const BILLS = [SEARCH_BILLS, GET_BILL];

const isSuccess = (reply: SandboxReply) => reply.status === 200 && reply.body !== undefined;
const withBody = (reply: SandboxReply, body: unknown): SandboxReply => ({ ...reply, body });
const endsWith = (e: unknown, name: string): e is JsonObject =>
  isObject(e) && typeof e.url === 'string' && e.url.endsWith(`/${name}`);

/** Rewrites every FHIR dateTime the remittance and hospital-claim answers carry (not `meta.lastUpdated`, an instant). */
function mapDateTimes(reply: SandboxReply, rewrite: (v: string) => string): SandboxReply {
  if (!isSuccess(reply)) return reply;
  let body = mapResources(reply.body, 'PaymentReconciliation', (r) =>
    typeof r.created === 'string' ? { ...r, created: rewrite(r.created) } : r,
  );
  body = mapResources(body, 'ClaimResponse', (r) => ({
    ...r,
    extension: arr(r.extension).map((e) =>
      endsWith(e, 'createdOn') && typeof e.valueDateTime === 'string'
        ? { ...e, valueDateTime: rewrite(e.valueDateTime) }
        : e,
    ),
  }));
  body = mapResources(body, 'Claim', (r) => ({
    ...r,
    ...(Array.isArray(r.procedure)
      ? {
          procedure: r.procedure.map((p) =>
            isObject(p) && typeof p.date === 'string' ? { ...p, date: rewrite(p.date) } : p,
          ),
        }
      : {}),
  }));
  return withBody(reply, body);
}

/** Every Identifier object (an object with `system` and `value` strings) gets `use` and `period` null when absent. */
const nullIdentifierParts = (body: unknown) =>
  mapObjects(body, (o) =>
    typeof o.system === 'string' && typeof o.value === 'string' ? nullWhereAbsent(o, ['use', 'period']) : o,
  );
/** Every Money object (a numeric `value` and nothing named `url`) gets `currency` null when absent. */
const nullMoneyCurrency = (body: unknown) =>
  mapObjects(body, (o) => (typeof o.value === 'number' && !('url' in o) ? nullWhereAbsent(o, ['currency']) : o));

/** The 400 / 422 codes of the remittance searches' table (D1 7) swapped for another code of the same table. */
const REMITTANCE_ALTERNATIVE: Readonly<Record<string, { status: number; code: string }>> = {
  MSG_INVALID_FORMAT: { status: 422, code: 'MSG_PARAM_INVALID' },
};

/** A date written dd/MM/yyyy or yyyy/MM/dd read leniently as yyyy-MM-dd; undefined when it is neither. */
function lenientDate(v: string): string | undefined {
  const dmy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(v);
  if (dmy) return `${dmy[3]}-${dmy[2]}-${dmy[1]}`;
  const ymd = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(v);
  return ymd ? `${ymd[1]}-${ymd[2]}-${ymd[3]}` : undefined;
}

/** The whole-word match of a patient name: the family name, a given name, or "given family" / the full text, ignoring case. */
function patientNameMatchesWhole(detail: JsonObject, value: string): boolean {
  const v = value.trim().toLowerCase();
  const names = arr(detail.contained)
    .filter((c): c is JsonObject => isObject(c) && c.resourceType === 'Patient')
    .flatMap((p) => arr(p.name).filter(isObject));
  return names.some((n) => {
    const given = arr(n.given).filter((g): g is string => typeof g === 'string');
    const prefix = arr(n.prefix).filter((g): g is string => typeof g === 'string');
    const family = typeof n.family === 'string' ? n.family : '';
    const forms = [family, `${given.join(' ')} ${family}`, `${[...prefix, ...given].join(' ')} ${family}`];
    return forms.some((f) => f.trim().toLowerCase() === v);
  });
}

/** The batch operations (D1 4.6 to 4.8), whose header lists carry `content-type: application/fhir+json`, a GET's too. */
const BATCHES = ['list-pending-remittances', 'get-remittance-details', 'ack-remittance'];

/** The detail's numbers 2.5 lists as extensions in its field list and as identifier entries in its members (DEC-D1-07). */
const DETAIL_NUMBERS = ['insurerBillNumber', 'hospitalNumber', 'chClaimNo'];

/** An identifier entry `{clearing_url}/<name>` written as the extension `{clearing_url}/extension/<name>` valueString. */
function numbersAsExtensions(r: JsonObject): JsonObject {
  const moved: JsonObject[] = [];
  const identifier = arr(r.identifier).filter((i) => {
    if (!isObject(i) || typeof i.system !== 'string' || typeof i.value !== 'string') return true;
    const system = i.system;
    const name = DETAIL_NUMBERS.find((n) => system.endsWith(`/${n}`));
    if (name === undefined) return true;
    moved.push({ url: `${system.slice(0, -name.length)}extension/${name}`, valueString: i.value });
    return false;
  });
  const { identifier: _identifier, ...rest } = r;
  return { ...rest, ...(identifier.length > 0 ? { identifier } : {}), extension: [...arr(r.extension), ...moved] };
}

/** What a patient owes on a detail: the shortfall reasons whose liability type names the patient. */
const patientLiability = (d: RemittanceDetail) =>
  d.shortfallReasons.filter((r) => /patient/i.test(r.liabilityType)).reduce((sum, r) => sum + r.amount, 0);

/** 2.5's Short Amount with "claim total" read as the insurer's part of the invoice (net of what the patient owes). */
function shortAmountOfInsurerTotal(d: RemittanceDetail): RemittanceDetail {
  const short =
    Math.round((d.invoiceTotal - patientLiability(d) - (d.previousPaidAmount ?? 0) - d.paidAmount) * 100) / 100;
  return { ...d, shortAmount: Math.max(0, short) };
}

/** Bank details a Cheque payment carries all the same (the account the insurer holds on file). */
const CHEQUE_SORT_CODE = '20-00-00';
const CHEQUE_ACCOUNT = '00000000';

export const D1_CLAIMS_VARIANTS: readonly Variant[] = [
  {
    name: 'fhir-datetime-date-only',
    kind: 'date-form',
    allowedBy: ['DEC-D1-57', 'FHIR R4 dateTime (a date alone is a valid dateTime)'],
    description:
      'FHIR dateTimes are written as a date only: summary `created`, detail extension `createdOn`, hospital claim `procedure[].date` (`2026-01-01`).',
    operations: [...REMITTANCE, ...HOSPITAL],
    reply: (reply) => mapDateTimes(reply, (v) => v.slice(0, 10)),
  },
  {
    name: 'fhir-datetime-basic-offset',
    kind: 'date-form',
    allowedBy: ['DEC-D1-57', 'ISO 8601 (basic-format offset ±hhmm)'],
    description:
      'FHIR dateTimes carry their offset in the ISO 8601 basic form `+0000` instead of `+00:00` / `Z`: summary `created`, detail `createdOn`, hospital claim `procedure[].date`.',
    operations: [...REMITTANCE, ...HOSPITAL],
    reply: (reply) => mapDateTimes(reply, (v) => v.replace(/(Z|\+00:00)$/, '+0000')),
  },
  {
    name: 'payment-method-lower-case',
    kind: 'letter-case',
    allowedBy: ['DEC-D1-36'],
    description:
      'The summary extension `paymentMethod` is written in lower case (`cheque`, `bacs`): the documents do not fix its letter case.',
    operations: [SUMMARY],
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            mapResources(reply.body, 'PaymentReconciliation', (r) => ({
              ...r,
              extension: arr(r.extension).map((e) =>
                endsWith(e, 'paymentMethod') && typeof e.valueString === 'string'
                  ? { ...e, valueString: e.valueString.toLowerCase() }
                  : e,
              ),
            })),
          )
        : reply,
  },
  {
    name: 'remittance-optional-members-null',
    kind: 'null-optional',
    allowedBy: ['D1 2.4', 'D1 2.5', 'DEC-D1-75'],
    description:
      'Remittance summaries and details write absent optional members as null: Money `currency`, Identifier `use` and `period`, the detail Patient `name` (0-1) when the detail has none, and `item` when there is no shortfall reason.',
    operations: REMITTANCE,
    reply: (reply) => {
      if (!isSuccess(reply)) return reply;
      let body = nullMoneyCurrency(nullIdentifierParts(reply.body));
      body = mapResources(body, 'ClaimResponse', (r) => {
        const contained = arr(r.contained).map((c) =>
          isObject(c) && c.resourceType === 'Patient' ? nullWhereAbsent(c, ['name']) : c,
        );
        return { ...r, contained, item: Array.isArray(r.item) && r.item.length === 0 ? null : r.item };
      });
      return withBody(reply, body);
    },
  },
  {
    name: 'hospital-claim-optional-members-null',
    kind: 'null-optional',
    allowedBy: ['D1 2.7', 'DEC-D1-75'],
    description:
      'Hospital claim entries write absent optional members as null: Claim `patient.reference`, `item[].sequence`, `item[].encounter[].reference`, Identifier `use` and `period`.',
    operations: HOSPITAL,
    reply: (reply) => {
      if (!isSuccess(reply)) return reply;
      const body = mapResources(nullIdentifierParts(reply.body), 'Claim', (r) => ({
        ...r,
        patient: isObject(r.patient) ? nullWhereAbsent(r.patient, ['reference']) : r.patient,
        item: arr(r.item).map((i) =>
          isObject(i)
            ? {
                ...nullWhereAbsent(i, ['sequence']),
                encounter: arr(i.encounter).map((e) => (isObject(e) ? nullWhereAbsent(e, ['reference']) : e)),
              }
            : i,
        ),
      }));
      return withBody(reply, body);
    },
  },
  {
    name: 'bill-optional-members-null',
    kind: 'null-optional',
    allowedBy: ['D1 2.8', 'DEC-D1-54', 'DEC-D1-75'],
    description:
      'Bills write absent optional members as null: `meta`, Money `currency` (Invoice `totalNet`), Identifier `use` and `period`, Coding `display` of `priority`.',
    operations: BILLS,
    reply: (reply) => {
      if (!isSuccess(reply)) return reply;
      const body = mapResources(nullMoneyCurrency(nullIdentifierParts(reply.body)), 'Claim', (r) => ({
        ...nullWhereAbsent(r, ['meta']),
        priority: isObject(r.priority)
          ? {
              ...r.priority,
              coding: arr(r.priority.coding).map((c) => (isObject(c) ? nullWhereAbsent(c, ['display']) : c)),
            }
          : r.priority,
      }));
      return withBody(reply, body);
    },
  },
  {
    name: 'remittance-error-code-alternative',
    kind: 'error-code',
    allowedBy: ['D1 7', 'DEC-D1-24'],
    description:
      'The remittance searches answer a malformed value (`hasShortFall=yes`, `page=-1`, a month-13 date, `gt100`) with `MSG_PARAM_INVALID` (422) instead of `MSG_INVALID_FORMAT` (422), and an empty `count` or `page` with `MSG_INVALID_FORMAT` (422) instead of `MSG_PARAM_EMPTY` (400): other codes of the same table at their documented status.',
    operations: REMITTANCE,
    reply: (reply, { request }) => {
      const code = errorCodeOf(reply.body);
      if (reply.status < 400 || code === undefined) return reply;
      const emptyPaging = code === 'MSG_PARAM_EMPTY' && ['count', 'page'].some((p) => request.form?.get(p) === '');
      const to = emptyPaging ? { status: 422, code: 'MSG_INVALID_FORMAT' } : REMITTANCE_ALTERNATIVE[code];
      return to
        ? { ...reply, status: to.status, body: operationOutcome(to.code, `Parameter rejected (${code})`) }
        : reply;
    },
  },
  {
    name: 'remittance-patient-name-whole-words',
    kind: 'data',
    allowedBy: ['D1 4.4', 'D1 4.5', 'DEC-D1-70'],
    description:
      '`patientName` matches whole names only (the family name, a given name, "given family" or "prefix given family", ignoring case), not any part of a word: `Wri` finds nothing where `Wright` finds Henry Wright.',
    operations: [DETAIL],
    reply: (reply, { request }) => {
      const value = request.form?.get('patientName');
      if (!isSuccess(reply) || !value || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const entry = reply.body.entry.filter(
        (e) =>
          !isObject(e) ||
          !isObject(e.resource) ||
          patientNameMatchesWhole(e.resource, value) ||
          value.split(/\s+/).every((w) => patientNameMatchesWhole(e.resource as JsonObject, w)),
      );
      const removed = reply.body.entry.length - entry.length;
      const total = typeof reply.body.total === 'number' ? reply.body.total - removed : reply.body.total;
      return withBody(reply, { ...reply.body, total, entry });
    },
  },
  {
    name: 'remittance-provider-exact-name',
    kind: 'data',
    allowedBy: ['DEC-D1-26', 'D1 4.4 ("provider code or name"; the match rule is not stated)'],
    description:
      '`provider` matches a summary whose provider code or whole provider name equals the value (ignoring case), not a part of the name: `Harley` finds nothing where `Harley Street Clinic` finds the clinic.',
    operations: [SUMMARY],
    reply: (reply, { request }) => {
      const value = request.form?.get('provider')?.trim().toLowerCase();
      if (!isSuccess(reply) || !value || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const exact = (r: JsonObject) =>
        arr(r.contained).some(
          (o) =>
            isObject(o) &&
            o.resourceType === 'Organization' &&
            arr(o.identifier).some(
              (i) => isObject(i) && typeof i.system === 'string' && i.system.endsWith('/providerIdentifier'),
            ) &&
            ((typeof o.name === 'string' && o.name.toLowerCase() === value) ||
              arr(o.identifier).some((i) => isObject(i) && String(i.value).toLowerCase() === value)),
        );
      const entry = reply.body.entry.filter((e) => !isObject(e) || !isObject(e.resource) || exact(e.resource));
      const removed = reply.body.entry.length - entry.length;
      const total = typeof reply.body.total === 'number' ? reply.body.total - removed : reply.body.total;
      return withBody(reply, { ...reply.body, total, entry });
    },
  },
  {
    name: 'remittance-default-order-newest-first',
    kind: 'order',
    allowedBy: ['D1 4.4', 'D1 4.5 (the order without `_sort` is not shown)', 'DEC-D1-04'],
    description:
      'Without `_sort`, remittance summaries and details come newest first (as `-createdOn`) rather than in id order.',
    operations: REMITTANCE,
    request: (request) =>
      request.form?.has('_sort') ? request : withForm(request, (form) => form.set('_sort', '-createdOn')),
  },
  {
    name: 'remittance-total-of-page',
    kind: 'paging',
    allowedBy: ['DEC-D1-12', 'DEC-D1-68'],
    description:
      'Remittance bundles give as `total` the number of entries of the page, not the number of matches (`maxCount` still gives the matches).',
    operations: REMITTANCE,
    reply: (reply) =>
      isSuccess(reply) && isObject(reply.body) && Array.isArray(reply.body.entry)
        ? withBody(reply, { ...reply.body, total: reply.body.entry.length })
        : reply,
  },
  {
    name: 'remittance-example-names-refused',
    kind: 'error-code',
    allowedBy: ['DEC-D1-01', 'DEC-D1-04'],
    description:
      'The remittance searches refuse the request-example names: `paymentReference` and `_sort=providerName` / `invoiceTotal` are answered 422 `MSG_PARAM_INVALID` (the field table names neither).',
    operations: REMITTANCE,
    request: (request) => {
      const sort = request.form?.get('_sort')?.replace(/^-/, '');
      const example = sort === 'providerName' || sort === 'invoiceTotal';
      if (!example && !request.form?.has('paymentReference')) return request;
      return withForm(request, (form) => {
        if (form.has('paymentReference')) form.set('insurerIdentifier', 'zzz');
        if (example) form.set('_sort', 'zzz');
      });
    },
  },
  {
    name: 'remittance-error-body-plain',
    kind: 'error-body',
    allowedBy: ['DEC-D1-14', 'D1-7-17'],
    description:
      'The remittance searches answer errors with a plain object `{"code": "MSG_PARAM_EMPTY", "message": "..."}` instead of an OperationOutcome (the body shape of these errors is not shown).',
    operations: REMITTANCE,
    reply: (reply) => {
      const code = errorCodeOf(reply.body);
      return reply.status >= 400 && code !== undefined
        ? { ...reply, body: { code, message: `Request refused: ${code}` } }
        : reply;
    },
  },
  {
    name: 'remittance-default-window',
    kind: 'data',
    allowedBy: ['DEC-D1-69', 'D1 4.4 (what a search without filters returns is not shown)'],
    description:
      'A remittance summary search without any filter returns only the summaries created since 2025-03-01 (a default window); a filtered search sees every summary.',
    operations: [SUMMARY],
    request: (request) => {
      const filters = [...(request.form?.keys() ?? [])].filter((k) => !['page', 'count', '_sort'].includes(k));
      return filters.length > 0
        ? request
        : withForm(request, (form) => form.set('dateCreated', '2025-03-01_2099-12-31'));
    },
  },
  {
    name: 'remittance-no-last-updated',
    kind: 'null-optional',
    allowedBy: ['DEC-D1-27'],
    description:
      'Remittance summaries and details carry no `meta.lastUpdated` (where a record shows its last update is not shown); `_since` still filters on the server side.',
    operations: REMITTANCE,
    reply: (reply) => {
      if (!isSuccess(reply)) return reply;
      const strip = (r: JsonObject) => {
        const { meta: _meta, ...rest } = r;
        return rest;
      };
      return withBody(
        reply,
        mapResources(mapResources(reply.body, 'PaymentReconciliation', strip), 'ClaimResponse', strip),
      );
    },
  },
  {
    name: 'remittance-unknown-summary-empty',
    kind: 'error-code',
    allowedBy: ['DEC-D1-28', 'D1-4.5-02'],
    description:
      'A detail search of an unknown `remittance_summary_id` is answered 200 with an empty bundle (nothing matches) instead of 422 `MSG_PARAM_INVALID`.',
    operations: [DETAIL],
    reply: (reply, { request }) => {
      if (reply.status !== 422 || errorCodeOf(reply.body) !== 'MSG_PARAM_INVALID' || !isObject(reply.body))
        return reply;
      const issue = arr(reply.body.issue)[0];
      if (
        !isObject(issue) ||
        typeof issue.diagnostics !== 'string' ||
        !issue.diagnostics.startsWith('No remittance summary')
      )
        return reply;
      const count = request.form?.get('count') || '10';
      const page = request.form?.get('page') || '1';
      return {
        status: 200,
        body: {
          resourceType: 'Bundle',
          type: 'searchset',
          total: 0,
          meta: {
            tag: [
              { code: 'page', display: page },
              { code: 'count', display: count },
              { code: 'maxCount', display: '0' },
            ],
          },
          entry: [],
        },
      };
    },
  },
  {
    name: 'remittance-reversed-range-refused',
    kind: 'error-code',
    allowedBy: ['DEC-D1-71', 'D1 7'],
    description:
      'The remittance searches refuse a date range whose start is after its end (`2026-12-31_2026-01-01`) with 422 `MSG_PARAM_INVALID` instead of answering an empty bundle.',
    operations: REMITTANCE,
    reply: (reply, { request }) => {
      const reversed = ['dateCreated', 'datePaid', 'invoiceDate'].some((p) => {
        const m = /^(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$/.exec(request.form?.get(p) ?? '');
        return m !== null && m[1] > m[2];
      });
      return reversed && reply.status === 200
        ? { status: 422, body: operationOutcome('MSG_PARAM_INVALID', 'The range ends before it starts') }
        : reply;
    },
  },
  {
    name: 'hospital-claims-bundle-collection',
    kind: 'data',
    allowedBy: ['DEC-D1-66'],
    description:
      'Hospital claim bundles have `type` `collection` instead of `searchset` (only 4.6 and 4.11 fix the type).',
    operations: HOSPITAL,
    reply: (reply) =>
      isSuccess(reply) && isObject(reply.body) && reply.body.resourceType === 'Bundle'
        ? withBody(reply, { ...reply.body, type: 'collection' })
        : reply,
  },
  {
    name: 'hospital-claims-lenient-dates',
    kind: 'date-form',
    allowedBy: ['DEC-D1-62', 'D1-4.10-03'],
    description:
      'Hospital claim operations read a `dateCompleted` or `patientDateOfBirth` written `dd/MM/yyyy` or `yyyy/MM/dd` leniently instead of refusing it.',
    operations: HOSPITAL,
    request: (request) => {
      let query: URLSearchParams | undefined;
      for (const p of ['dateCompleted', 'patientDateOfBirth']) {
        const v = request.query.get(p);
        const iso = v === null ? undefined : lenientDate(v);
        if (iso === undefined) continue;
        query ??= new URLSearchParams(request.query);
        query.set(p, iso);
      }
      return query ? { ...request, query } : request;
    },
  },
  {
    name: 'clearing-errors-422',
    kind: 'error-code',
    allowedBy: ['DEC-D1-13', 'DEC-D1-31', 'D1-7-23'],
    description:
      'Hospital claim and bill operations answer every refusal (a missing parameter, an unknown bill, an `isArchived` other than true or false) with 422 and code `MSG_PARAM_INVALID`.',
    operations: [...HOSPITAL, ...BILLS],
    reply: (reply) =>
      reply.status >= 400 && reply.status < 500 && reply.status !== 401 && reply.status !== 403
        ? { ...reply, status: 422, body: operationOutcome('MSG_PARAM_INVALID', 'Request refused') }
        : reply,
  },
  {
    name: 'bill-archived-flag-as-text',
    kind: 'serialisation',
    allowedBy: ['DEC-D1-54', 'DEC-D1-55'],
    description:
      'The bill extension `IsArchived` carries `valueString` `"true"` / `"false"` instead of `valueBoolean` (2.8 gives it no type).',
    operations: BILLS,
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            mapResources(reply.body, 'Claim', (r) => ({
              ...r,
              extension: arr(r.extension).map((e) =>
                endsWith(e, 'IsArchived') && typeof e.valueBoolean === 'boolean'
                  ? (({ valueBoolean, ...rest }) => ({ ...rest, valueString: String(valueBoolean) }))(e)
                  : e,
              ),
            })),
          )
        : reply,
  },
  {
    name: 'remittance-numbers-as-extensions',
    kind: 'serialisation',
    allowedBy: ['DEC-D1-07', 'D1 2.5 ("listed as an extension valueString in the field list")'],
    description:
      "Remittance details carry Insurer Bill Number, Hospital Number and CH Claim Number as extensions `{clearing_url}/extension/<name>` valueString (the form of 2.5's field list) instead of identifier entries.",
    operations: [DETAIL],
    reply: (reply) =>
      isSuccess(reply) ? withBody(reply, mapResources(reply.body, 'ClaimResponse', numbersAsExtensions)) : reply,
  },
  {
    name: 'gated-field-ignored-without-feature',
    kind: 'validation',
    allowedBy: ['DEC-D1-15', 'D1 4.4 ("How a feature is enabled: not shown.")'],
    description:
      "A remittance search naming a feature-gated field the caller's features do not cover ignores that field (serves the search without it) instead of refusing it with 422 `MSG_PARAM_INVALID`.",
    operations: REMITTANCE,
    request: async (request, { operations, repo }) => {
      const token = bearerOf(request);
      const client = token === undefined ? undefined : await repo.clientForToken(token);
      if (client === undefined || request.form === undefined) return request;
      const gated = operations
        .filter((id) => REMITTANCE.includes(id))
        .flatMap((id) => operation(id).parameters)
        .filter((p) => (p.features ?? []).some((f) => !client.features.includes(f)))
        .map((p) => p.name);
      return gated.some((n) => request.form?.has(n))
        ? withForm(request, (form) => {
            for (const n of gated) form.delete(n);
          })
        : request;
    },
  },
  {
    name: 'clearing-get-content-type-required',
    kind: 'protocol',
    allowedBy: ['DEC-D1-16', 'D1 4.6 (`content-type: application/fhir+json` is listed as a header of a GET)'],
    description:
      'The batch operations (4.6 to 4.8) refuse a request without `Content-Type: application/fhir+json` (the header 4.6 lists, even on a GET) with 400 `MSG_CANT_PARSE_CONTENT`.',
    operations: BATCHES,
    reply: (reply, { received }) =>
      reply.status < 400 && mediaType(received.headers['content-type']) !== 'application/fhir+json'
        ? {
            status: 400,
            body: operationOutcome(
              'MSG_CANT_PARSE_CONTENT',
              `Expected Content-Type application/fhir+json, received ${received.headers['content-type'] ?? '<none>'}`,
            ),
          }
        : reply,
  },
  {
    name: 'has-shortfall-false-restricts',
    kind: 'filter-match',
    allowedBy: ['DEC-D1-25', 'D1 4.4 ("hasShortFall | Boolean | both | Only remittances with a shortfall")'],
    description:
      '`hasShortFall=false` keeps only the remittances without a shortfall (summaries whose `totalShortfall` and details whose `shortAmount` is absent or zero) instead of not restricting.',
    operations: REMITTANCE,
    repo: (repo, { request }) =>
      request.form?.get('hasShortFall')?.toLowerCase() !== 'false'
        ? repo
        : {
            ...repo,
            remittanceSummaries: async (siteId) =>
              (await repo.remittanceSummaries(siteId)).filter((s) => !((s.totalShortfall ?? 0) > 0)),
            remittanceDetails: async (summaryId) =>
              (await repo.remittanceDetails(summaryId)).filter((d) => !((d.shortAmount ?? 0) > 0)),
          },
  },
  {
    name: 'cheque-bank-details-present',
    kind: 'null-optional',
    allowedBy: ['DEC-D1-50', 'D1 2.4 ("present when the method is BACS"; other methods are not ruled out)'],
    description:
      'Remittances paid by Cheque carry bank details too: summary extensions `sortCode` and `accountNumber`, batch `bankSortCode` and `bankAccountNo` (the account the insurer holds on file).',
    operations: [SUMMARY, 'get-remittance-details'],
    reply: (reply) => {
      if (!isSuccess(reply)) return reply;
      const cheque = (v: unknown) => typeof v === 'string' && /^che/i.test(v);
      const body = mapObjects(
        mapResources(reply.body, 'PaymentReconciliation', (r) => {
          const method = arr(r.extension).find((e) => endsWith(e, 'paymentMethod'));
          if (!isObject(method) || !cheque(method.valueString) || typeof method.url !== 'string') return r;
          const base = method.url.slice(0, -'paymentMethod'.length);
          const extension = arr(r.extension).flatMap((e) =>
            e === method
              ? [
                  e,
                  { url: `${base}sortCode`, valueString: CHEQUE_SORT_CODE },
                  { url: `${base}accountNumber`, valueString: CHEQUE_ACCOUNT },
                ]
              : [e],
          );
          return { ...r, extension };
        }),
        (o) =>
          'paymentMethod' in o && 'paymentDate' in o && !('resourceType' in o) && cheque(o.paymentMethod)
            ? { ...o, bankSortCode: CHEQUE_SORT_CODE, bankAccountNo: CHEQUE_ACCOUNT }
            : o,
      );
      return withBody(reply, body);
    },
  },
  {
    name: 'summary-forward-extensions-batch-names',
    kind: 'serialisation',
    allowedBy: ['DEC-D1-51', 'D1 2.6 ("`broughtForward`, `carriedForward`")'],
    description:
      'Remittance summaries name the Brought Forward and Carried Forward extensions `broughtForward` / `carriedForward` (the batch field names of 2.6) instead of `broughtForwarded` / `carriedForwarded` (2.4); both are 0-1.',
    operations: [SUMMARY],
    reply: (reply) =>
      isSuccess(reply)
        ? withBody(
            reply,
            mapResources(reply.body, 'PaymentReconciliation', (r) => ({
              ...r,
              extension: arr(r.extension).map((e) =>
                isObject(e) && typeof e.url === 'string' && /\/(brought|carried)Forwarded$/.test(e.url)
                  ? { ...e, url: e.url.replace(/Forwarded$/, 'Forward') }
                  : e,
              ),
            })),
          )
        : reply,
  },
  {
    name: 'short-amount-of-insurer-total',
    kind: 'data',
    allowedBy: [
      'DEC-D1-53',
      'D1 2.5 ("claim total minus previously paid minus remitted"; "claim total" is tied to no field)',
    ],
    description:
      'A detail\'s `shortAmount` reads "claim total" as the insurer\'s part of the invoice: `invoiceTotal` less what the patient owes (the patient-liability adjudications), less `previousPaidAmount`, less `paidAmount` (not below zero); `hasShortFall` filters on that amount.',
    operations: [DETAIL],
    repo: (repo) => ({
      ...repo,
      remittanceDetails: async (summaryId) => (await repo.remittanceDetails(summaryId)).map(shortAmountOfInsurerTotal),
    }),
  },
  {
    name: 'encounter-full-url-episode-id',
    kind: 'data',
    allowedBy: ['DEC-D1-65', 'D1 2.7 (the relation of `<claim_id>` to the Claims of the bundle is not stated)'],
    description:
      'Hospital claim Encounters have the `fullUrl` `{claims_url}/claim/<episode id>/encounter/<encounter id>`, naming the hospital episode (`EP-<encounter id>`) rather than a Claim of the bundle.',
    operations: HOSPITAL,
    reply: (reply) => {
      if (!isSuccess(reply) || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const entry = reply.body.entry.map((e) =>
        isObject(e) && typeof e.fullUrl === 'string' && isObject(e.resource) && e.resource.resourceType === 'Encounter'
          ? { ...e, fullUrl: e.fullUrl.replace(/\/claim\/[^/]+\/encounter\/([^/]+)$/, '/claim/EP-$1/encounter/$1') }
          : e,
      );
      return withBody(reply, { ...reply.body, entry });
    },
  },
  {
    name: 'clearing-site-header-required',
    kind: 'protocol',
    allowedBy: ['DEC-D1-63', 'D1 1 ("Operations that depend on the caller\'s site take the header `SU-SiteId`")'],
    description:
      'The clearing operations (4.6 to 4.12) refuse a request without `SU-SiteId` with 400 `MSG_MISSING_MANDATORY_PARAM`, naming the header, though the site is also read from the token.',
    operations: [...BATCHES, ...HOSPITAL, ...BILLS],
    // A refused request changes nothing: the acknowledgement it refuses leaves the batch pending.
    repo: (repo, { request }) =>
      (request.headers['su-siteid'] ?? '').trim() === '' ? { ...repo, removeBatch: async () => true } : repo,
    reply: (reply, { received }) =>
      (received.headers['su-siteid'] ?? '').trim() === '' && reply.status !== 401
        ? { status: 400, body: operationOutcome('MSG_MISSING_MANDATORY_PARAM', 'Header SU-SiteId is required') }
        : reply,
  },
];
