/**
 * Variants of Document 1 (find member, search authorisation, remittance batches): choices its text or spec/decisions.md allow. See ./types.ts.
 */
import { FIND_MEMBER_V1_INSURERS, FIND_MEMBER_V2_INSURERS } from '../../spec/operations.ts';
import { operationOutcome } from '../router/errors.ts';
import type { SandboxReply, SandboxRequest } from '../router/types.ts';
import { errorCodeOf, isObject, mapObjects, nullWhereAbsent, withForm, type JsonObject } from '../modifiers/json.ts';
import type { Variant } from './types.ts';

const FIND_MEMBER = ['find-member-v1', 'find-member-v2'];
const AUTH = 'search-authorisation';
const LIST = 'list-pending-remittances';
const GET = 'get-remittance-details';
const ACK = 'ack-remittance';
const FORM = 'application/x-www-form-urlencoded';

/** The batch object of a successful Get Remittance Details, rewritten claim by claim / provider by provider. */
function mapBatch(
  reply: SandboxReply,
  visit: {
    batch?: (b: JsonObject) => JsonObject;
    provider?: (p: JsonObject) => JsonObject;
    claim?: (c: JsonObject) => JsonObject;
  },
): SandboxReply {
  if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.providers)) return reply;
  const providers = reply.body.providers.map((p) => {
    if (!isObject(p)) return p;
    const claims = Array.isArray(p.claims)
      ? p.claims.map((c) => (isObject(c) && visit.claim ? visit.claim(c) : c))
      : p.claims;
    const copy = { ...p, claims };
    return visit.provider ? visit.provider(copy) : copy;
  });
  const batch = { ...reply.body, providers };
  return { ...reply, body: visit.batch ? visit.batch(batch) : batch };
}

const MONETARY = [
  'broughtForward',
  'carriedForward',
  'amountDue',
  'amountPaid',
  'claimAmount',
  'paidAmount',
  'prevPaidAmount',
  'shortAmount',
  'amount',
];

/** An error answer of Find Member (2.3). */
const findMemberError = (status: number, code: string, diagnostics: string): SandboxReply => ({
  status,
  body: operationOutcome(code, diagnostics, ['Coverage']),
});

/** The filter fields of 4.3 (paging and `_sort` are not filters). */
const AUTH_FILTERS = [
  'insurerIdentifier',
  'caseCode',
  'authCode',
  'membershipNumber',
  'status',
  'preAuthStatus',
  'actionStatus',
  'issueDate',
  'requestedDate',
  'lastUpdatedOn',
  '_since',
];

/** Version-1 insurers whose rule (DEC-D1-18: "depends on insurer") needs `dateOfBirth` beside `membershipNumber`. */
const DOB_WITH_MEMBERSHIP_NUMBER = ['ppp', 'wpa'];

/** The authorisation date filters that take a minute or a range of minutes (D1 4.3; DEC-D1-23). */
const AUTH_DATE_FILTERS = ['issueDate', 'requestedDate', 'lastUpdatedOn'];

/** `YYYY-MM-DDTHH:MM` one minute earlier (read as UTC, as the sandbox compares the text). */
const minuteBefore = (minute: string): string | undefined => {
  const t = Date.parse(`${minute}:00Z`);
  return Number.isNaN(t) ? undefined : new Date(t - 60_000).toISOString().slice(0, 16);
};

/** A year of days before a date (`YYYY-MM-DD`): the term a yearly policy renewed on that date followed. */
const yearBefore = (day: string): string =>
  `${String(Number(day.slice(0, 4)) - 1).padStart(4, '0')}${day.slice(4, 10)}`;

let pendingListCalls = 0;

export const D1_MEMBERSHIP_VARIANTS: readonly Variant[] = [
  {
    name: 'batch-optional-members-null',
    kind: 'null-optional',
    allowedBy: ['D1 2.6', 'DEC-D1-48', 'D1-2.6-06', 'D1-2.6-19'],
    description:
      "The batch object writes absent optional members as null: `insurer`, each claim's `invoiceRef`, the unused one of `patientName` / `patientNameUnstruct`, and `bankSortCode` / `bankAccountNo` of a Cheque payment.",
    operations: [GET],
    reply: (reply) =>
      mapBatch(reply, {
        batch: (b) => nullWhereAbsent(b, ['insurer']),
        provider: (p) =>
          isObject(p.paymentDetails)
            ? { ...p, paymentDetails: nullWhereAbsent(p.paymentDetails, ['bankSortCode', 'bankAccountNo']) }
            : p,
        claim: (c) => nullWhereAbsent(c, ['invoiceRef', 'patientName', 'patientNameUnstruct']),
      }),
  },
  {
    name: 'batch-money-as-text',
    kind: 'serialisation',
    allowedBy: ['DEC-D1-47', 'D1-2.6-17'],
    description:
      'Every Monetary amount of the batch object is a numeric string with two decimals (`"212.50"`) instead of a JSON number.',
    operations: [GET],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              Object.fromEntries(
                Object.entries(o).map(([k, v]) => [
                  k,
                  MONETARY.includes(k) && typeof v === 'number' ? v.toFixed(2) : v,
                ]),
              ),
            ),
          },
  },
  {
    name: 'batch-short-pay-single',
    kind: 'serialisation',
    allowedBy: ['DEC-D1-42', 'D1-2.6-18'],
    description:
      'A claim with one short-payment reason carries it as a single value (not a one-item list), and the unused style as an empty list.',
    operations: [GET],
    reply: (reply) =>
      mapBatch(reply, {
        claim: (c) => {
          if (Array.isArray(c.shortPay) && c.shortPay.length === 1)
            return { ...c, shortPay: c.shortPay[0], shortPayEx: [] };
          if (Array.isArray(c.shortPayEx) && c.shortPayEx.length === 1)
            return { ...c, shortPayEx: c.shortPayEx[0], shortPay: [] };
          return c;
        },
      }),
  },
  {
    name: 'batch-cuid-scope-absent',
    kind: 'default-value',
    allowedBy: ["D1-2.6-14 (the scope's default value is Provider)", 'D1 2.6'],
    description: 'Every claim `cuid` omits `scope`, whose default value is `Provider`.',
    operations: [GET],
    reply: (reply) =>
      mapBatch(reply, {
        claim: (c) => {
          if (!isObject(c.cuid)) return c;
          const { scope: _scope, ...cuid } = c.cuid;
          return { ...c, cuid };
        },
      }),
  },
  {
    name: 'batch-recipient-other-form',
    kind: 'letter-case',
    allowedBy: ['DEC-D1-49', 'D1-2.6-05'],
    description:
      '`msgRecipient` names the calling site in another form than the configured site id (lower case, `site001`): the site comes from the token in a form the documents do not fix.',
    operations: [GET],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && typeof reply.body.msgRecipient === 'string'
        ? { ...reply, body: { ...reply.body, msgRecipient: reply.body.msgRecipient.toLowerCase() } }
        : reply,
  },
  {
    name: 'batch-claims-reverse-order',
    kind: 'order',
    allowedBy: ['DEC-D1-41'],
    description:
      'Each provider lists its `claims[]` in descending `cuid` order (the order of `claims[]` is not said to follow `cuid`).',
    operations: [GET],
    reply: (reply) =>
      mapBatch(reply, { provider: (p) => (Array.isArray(p.claims) ? { ...p, claims: [...p.claims].reverse() } : p) }),
  },
  {
    name: 'batch-payment-method-long-text',
    kind: 'data',
    allowedBy: ['DEC-D1-36', 'D1-2.6-12'],
    description:
      '`paymentDetails.paymentMethod` is a longer text, as the example shows (`BACS Payment`, `Cheque Payment`).',
    operations: [GET],
    reply: (reply) =>
      mapBatch(reply, {
        provider: (p) =>
          isObject(p.paymentDetails) && typeof p.paymentDetails.paymentMethod === 'string'
            ? {
                ...p,
                paymentDetails: { ...p.paymentDetails, paymentMethod: `${p.paymentDetails.paymentMethod} Payment` },
              }
            : p,
      }),
  },
  {
    name: 'batch-msgid-not-sequential',
    kind: 'data',
    allowedBy: ['DEC-D1-49', 'D1-2.6-04'],
    description: '`msgId` is a sender-generated text that is unique but not a sequential number (`MSG-<batch id>-A7`).',
    operations: [GET],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body)
        ? { ...reply, body: { ...reply.body, msgId: `MSG-${String(reply.body.msgId)}-A7` } }
        : reply,
  },
  {
    name: 'pending-list-order-varies',
    kind: 'order',
    allowedBy: ['D1 4.6 (no order is stated)', 'DEC-D1-40'],
    description:
      'When one page holds the whole pending list, its order changes from one call to the next (rotated by one each call); pages of a longer list keep a stable order.',
    operations: [LIST],
    reply: (reply) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const entry = reply.body.entry;
      if (entry.length < 2 || entry.length !== reply.body.total) return reply;
      pendingListCalls += 1;
      // 1 .. length-1: never the reference order, and two calls in a row differ (for three entries or more).
      const k = 1 + (pendingListCalls % (entry.length - 1));
      return { ...reply, body: { ...reply.body, entry: [...entry.slice(k), ...entry.slice(0, k)] } };
    },
  },
  {
    name: 'invalid-id-status-400',
    kind: 'error-status',
    allowedBy: ['DEC-D1-11', 'D1-7-21'],
    description: '`InvalidId` is answered with HTTP 400 instead of 404 (its status is not shown).',
    operations: [GET, ACK],
    reply: (reply) =>
      reply.status === 404 && isObject(reply.body) && reply.body.code === 'InvalidId'
        ? { ...reply, status: 400 }
        : reply,
  },
  {
    name: 'invalid-id-object',
    kind: 'serialisation',
    allowedBy: ['DEC-D1-11', 'D1 7 ("`InvalidId` (an object of type `id` plus the id)")'],
    description:
      '`InvalidId` is written as the object D1 7 describes, `{"InvalidId":{"type":"id","id":"<id>"}}`, with no `code` member.',
    operations: [GET, ACK],
    reply: (reply) =>
      reply.status === 404 && isObject(reply.body) && reply.body.code === 'InvalidId'
        ? { ...reply, body: { InvalidId: { type: 'id', id: reply.body.id } } }
        : reply,
  },
  {
    name: 'form-content-type-optional',
    kind: 'protocol',
    allowedBy: [
      'DEC-D1-73',
      'D1 4 (the header is listed; a request without it is never said to be refused)',
      'D1-4-02',
    ],
    description:
      'A form POST sent without Content-Type is read as a form (`application/x-www-form-urlencoded`) instead of being refused.',
    operations: [...FIND_MEMBER, AUTH],
    request: (req): SandboxRequest =>
      req.method !== 'POST' || req.headers['content-type'] !== undefined
        ? req
        : { ...req, headers: { ...req.headers, 'content-type': FORM }, form: new URLSearchParams(req.rawBody) },
  },
  {
    name: 'unsupported-insurer-no-match',
    kind: 'error-code',
    allowedBy: ['DEC-D1-19', 'D1 7 (Find Member error table)'],
    description:
      "Find Member answers an insurer outside its version's list with 400 `NO_MATCH_FOUND` (no member of that insurer) instead of 422 `MSG_PARAM_INVALID`.",
    operations: FIND_MEMBER,
    reply: (reply, { request }) => {
      const version = (request.headers['svc-api-version'] ?? '').trim();
      const insurer = request.form?.get('insurerIdentifier');
      const list: readonly string[] =
        version === '1' ? FIND_MEMBER_V1_INSURERS : version === '2' ? FIND_MEMBER_V2_INSURERS : [];
      if (!insurer || list.length === 0 || list.includes(insurer) || reply.status < 400) return reply;
      return findMemberError(400, 'NO_MATCH_FOUND', `No member of insurer ${insurer} matches the search details`);
    },
  },
  {
    name: 'multiple-match-other-wording',
    kind: 'data',
    allowedBy: ['DEC-D1-34', 'D1-4.2-13'],
    description:
      "The diagnostics of `MULTIPLE_MATCH_FOUND` use other words than the sandbox's (the wording is recorded, not judged).",
    operations: FIND_MEMBER,
    reply: (reply) =>
      reply.status >= 400 &&
      isObject(reply.body) &&
      Array.isArray(reply.body.issue) &&
      JSON.stringify(reply.body).includes('MULTIPLE_MATCH_FOUND')
        ? findMemberError(
            reply.status,
            'MULTIPLE_MATCH_FOUND',
            'Several members were found. Please check the details supplied or call the insurer.',
          )
        : reply,
  },
  {
    name: 'find-member-success-201',
    kind: 'status',
    allowedBy: ['DEC-D1-03', 'D1-4.1-15'],
    description: 'Find Member answers a single match with HTTP 201 (the success status is not shown; any 2xx passes).',
    operations: FIND_MEMBER,
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && reply.body.resourceType === 'Coverage'
        ? { ...reply, status: 201 }
        : reply,
  },
  {
    name: 'malformed-date-cant-parse',
    kind: 'error-code',
    allowedBy: ['DEC-D1-58', 'D1 7 (Find Member error table)'],
    description:
      'Find Member answers a malformed `dateOfBirth` or `policyActiveOn` with 400 `MSG_CANT_PARSE_CONTENT` instead of 422 `MSG_PARAM_INVALID`.',
    operations: FIND_MEMBER,
    reply: (reply, { request }) => {
      const malformed = ['dateOfBirth', 'policyActiveOn'].some((f) => {
        const v = request.form?.get(f);
        return v !== null && v !== undefined && v !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(v);
      });
      return malformed && reply.status === 422
        ? findMemberError(400, 'MSG_CANT_PARSE_CONTENT', 'dateOfBirth or policyActiveOn cannot be read as YYYY-MM-DD')
        : reply;
    },
  },
  {
    name: 'coverage-gender-capitalised',
    kind: 'letter-case',
    allowedBy: ['DEC-D1-43', 'D1-2.2-10'],
    description:
      'The contained Patient `gender` is written capitalised as the 4.1 example value (`Male`, `Female`) instead of the FHIR code (`male`); Gender has no value list.',
    operations: FIND_MEMBER,
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && reply.body.resourceType === 'Coverage'
        ? {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              o.resourceType === 'Patient' && typeof o.gender === 'string'
                ? { ...o, gender: o.gender.charAt(0).toUpperCase() + o.gender.slice(1) }
                : o,
            ),
          }
        : reply,
  },
  {
    name: 'outcome-other-code-system',
    kind: 'data',
    allowedBy: ['DEC-D1-46', 'D1 2.3 (the coding system is not given)'],
    description:
      'Find Member error answers name their codes under another coding system URL (`urn:example:errors`); the system is recorded, not judged.',
    operations: FIND_MEMBER,
    reply: (reply) =>
      reply.status >= 400 && isObject(reply.body) && reply.body.resourceType === 'OperationOutcome'
        ? {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              typeof o.system === 'string' && typeof o.code === 'string' ? { ...o, system: 'urn:example:errors' } : o,
            ),
          }
        : reply,
  },
  {
    name: 'outcome-location-expression-absent',
    kind: 'null-optional',
    allowedBy: [
      'DEC-D1-46',
      'D1-2.3-06',
      'D1 2.3 (no cardinality for the issue members)',
      'FHIR R4 JSON (no empty arrays)',
    ],
    description:
      'Find Member error answers leave out `location` and `expression` in every issue (their presence is SHOULD; FHIR JSON writes no empty list).',
    operations: FIND_MEMBER,
    reply: (reply) =>
      reply.status >= 400 && isObject(reply.body) && reply.body.resourceType === 'OperationOutcome'
        ? {
            ...reply,
            body: {
              ...reply.body,
              issue: (Array.isArray(reply.body.issue) ? reply.body.issue : []).map((i) =>
                isObject(i)
                  ? Object.fromEntries(Object.entries(i).filter(([k]) => k !== 'location' && k !== 'expression'))
                  : i,
              ),
            },
          }
        : reply,
  },
  {
    name: 'coverage-period-date-only',
    kind: 'date-form',
    allowedBy: ['DEC-D1-57', 'FHIR R4 dateTime'],
    description:
      'The Coverage `period.start` / `period.end` are written as dates only (`2026-01-01`) and `benefitUsedAsOf` with a `+0000` offset.',
    operations: FIND_MEMBER,
    reply: (reply) => {
      if (reply.status !== 200 || !isObject(reply.body) || reply.body.resourceType !== 'Coverage') return reply;
      const body = { ...reply.body };
      if (isObject(body.period))
        body.period = Object.fromEntries(
          Object.entries(body.period).map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, 10) : v]),
        );
      if (Array.isArray(body.extension)) {
        body.extension = body.extension.map((e) =>
          isObject(e) && typeof e.valueDateTime === 'string' && String(e.url).endsWith('/benefitUsedAsOf')
            ? { ...e, valueDateTime: `${e.valueDateTime.slice(0, 19)}+0000` }
            : e,
        );
      }
      return { ...reply, body };
    },
  },
  {
    name: 'authorisation-default-window',
    kind: 'data',
    allowedBy: [
      'DEC-D1-74',
      'DEC-D1-67',
      'DEC-D1-45',
      'D1 4.3 (all fields optional; what a search without filters returns is not shown)',
      'D1 8',
    ],
    description:
      'A Search Authorisation without any filter field returns only the records issued since 2026-01-01 (a default date window); any filter lifts the window.',
    operations: [AUTH],
    request: (req): SandboxRequest => {
      const form = req.form;
      if (req.method !== 'POST' || form === undefined || AUTH_FILTERS.some((f) => form.has(f))) return req;
      const windowed = new URLSearchParams(form);
      windowed.set('issueDate', '2026-01-01T00:00_2099-12-31T23:59');
      return { ...req, form: windowed };
    },
  },
  {
    name: 'authorisation-read-status-refused',
    kind: 'validation',
    allowedBy: ['DEC-D1-39', 'D1-3-11', 'D1-7-24'],
    description:
      'Search Authorisation refuses the `status` values `read` and `unread` with 422 `MSG_PARAM_INVALID` (section 4.3 does not list the values of `status`).',
    operations: [AUTH],
    reply: (reply, { request }) =>
      request.form?.has('status')
        ? {
            status: 422,
            body: operationOutcome('MSG_PARAM_INVALID', `status ${request.form.get('status')} is not a known value`),
          }
        : reply,
  },
  {
    name: 'preauth-claim-without-id',
    kind: 'null-optional',
    allowedBy: ['DEC-D1-22', 'D1 4.3 ("The fields of each returned Claim: not shown.")', 'D1-4.3-16'],
    description:
      'Search Authorisation answers its pre-authorisation Claims without `id` (no field of the Claim is shown; only `use` is named).',
    operations: [AUTH],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && reply.body.resourceType === 'Bundle'
        ? {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              o.resourceType === 'Claim' ? Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'id')) : o,
            ),
          }
        : reply,
  },
  {
    name: 'authorisation-bundle-collection',
    kind: 'data',
    allowedBy: ['DEC-D1-66', 'D1-2.1-01'],
    description: 'The Search Authorisation bundle has `type` `collection` instead of `searchset`.',
    operations: [AUTH],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && reply.body.resourceType === 'Bundle'
        ? { ...reply, body: { ...reply.body, type: 'collection' } }
        : reply,
  },
  {
    name: 'find-member-v1-insurer-rule',
    kind: 'validation',
    allowedBy: ['DEC-D1-18', 'D1 4.1 ("Per-insurer mandatory and optional rules: not shown.")'],
    description:
      'Version 1 of Find Member has a rule of its own for `ppp` and `wpa`: a search by `membershipNumber` needs `dateOfBirth` beside it, else 400 `MSG_MISSING_MANDATORY_PARAM` (every field but `insurerIdentifier` "depends on insurer").',
    operations: FIND_MEMBER,
    reply: (reply, { received, request }) => {
      const form = request.form;
      if (received.headers['svc-api-version'] !== '1' || form === undefined) return reply;
      const insurer = (form.get('insurerIdentifier') ?? '').trim().toLowerCase();
      const needsDob =
        DOB_WITH_MEMBERSHIP_NUMBER.includes(insurer) &&
        (form.get('membershipNumber') ?? '') !== '' &&
        (form.get('dateOfBirth') ?? '') === '';
      const dataOutcome =
        reply.status === 200 || ['NO_MATCH_FOUND', 'MULTIPLE_MATCH_FOUND'].includes(errorCodeOf(reply.body) ?? '');
      return needsDob && dataOutcome
        ? findMemberError(
            400,
            'MSG_MISSING_MANDATORY_PARAM',
            `Insurer ${insurer} needs dateOfBirth with membershipNumber`,
          )
        : reply;
    },
  },
  {
    name: 'site-header-missing-403',
    kind: 'error-status',
    allowedBy: ['DEC-D1-21', 'D1 5 (the answer without `SU-SiteId` is not shown)'],
    description:
      'A membership, authorisation or remittance-search request without `SU-SiteId` is answered 403 `MSG_FORBIDDEN` (no site, no access) instead of 400 `MSG_MISSING_MANDATORY_PARAM`.',
    operations: [...FIND_MEMBER, AUTH, 'search-remittance-summary', 'search-remittance-detail'],
    reply: (reply, { received }) =>
      (received.headers['su-siteid'] ?? '').trim() === '' &&
      reply.status === 400 &&
      errorCodeOf(reply.body) === 'MSG_MISSING_MANDATORY_PARAM'
        ? { status: 403, body: operationOutcome('MSG_FORBIDDEN', 'No site is named (SU-SiteId): access denied') }
        : reply,
  },
  {
    name: 'authorisation-range-end-exclusive',
    kind: 'filter-match',
    allowedBy: ['DEC-D1-23', 'D1 4.3 (a range `YYYY-MM-DDTHH:MM_YYYY-MM-DDTHH:MM`; its inclusivity is not stated)'],
    description:
      'Search Authorisation reads a date range as half-open: a record at the end minute of `issueDate`, `requestedDate` or `lastUpdatedOn` is left out (a single minute still means that minute).',
    operations: [AUTH],
    request: (req) => {
      const ranges = AUTH_DATE_FILTERS.filter((f) => /^.{16}_.{16}$/.test(req.form?.get(f) ?? ''));
      return ranges.length === 0
        ? req
        : withForm(req, (form) => {
            for (const f of ranges) {
              const [start, end] = (form.get(f) ?? '').split('_');
              const before = minuteBefore(end);
              if (before !== undefined) form.set(f, `${start}_${before}`);
            }
          });
    },
  },
  {
    name: 'find-member-json-body-param-invalid',
    kind: 'error-code',
    allowedBy: ['DEC-D1-59', 'D1 7 ("422 | MSG_PARAM_INVALID | Parameter content invalid")'],
    description:
      'Find Member answers a JSON body sent under the form content type with 422 `MSG_PARAM_INVALID` (its content is invalid) instead of reading it as a form that lacks its fields.',
    operations: FIND_MEMBER,
    reply: (reply, { received }) =>
      reply.status >= 400 && reply.status < 500 && /^\s*[{[]/.test(received.rawBody) && received.form !== undefined
        ? findMemberError(422, 'MSG_PARAM_INVALID', 'The body is not form-encoded')
        : reply,
  },
  {
    name: 'coverage-policy-renewed-term',
    kind: 'data',
    allowedBy: ['DEC-D1-60', 'D1 4.2 (how `policyActiveOn` shows in the Coverage is not said)'],
    description:
      "Policies renew yearly: `policyActiveOn` in the year before a member's current term finds the member too, and the Coverage shows the current term as its `period`, which then does not contain `policyActiveOn`.",
    operations: FIND_MEMBER,
    request: async (req, { repo }) => {
      const day = req.form?.get('policyActiveOn') ?? '';
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return req;
      const members = await repo.members();
      const inTerm = (start: string, end: string) => start.slice(0, 10) <= day && day <= end.slice(0, 10);
      if (members.some((m) => inTerm(m.periodStart, m.periodEnd))) return req;
      const renewed = members.find(
        (m) => inTerm(yearBefore(m.periodStart), m.periodStart) && day < m.periodStart.slice(0, 10),
      );
      return renewed ? withForm(req, (form) => form.set('policyActiveOn', renewed.periodStart.slice(0, 10))) : req;
    },
  },
  {
    name: 'foreign-batch-forbidden',
    kind: 'error-status',
    allowedBy: ['DEC-D1-64', "D1 4.6 (the answer to another site's batch is not shown)"],
    description:
      'Get or Ack of a batch of another site is answered 403 `MSG_FORBIDDEN` instead of `InvalidId` (the batch exists, the caller may not see it).',
    operations: [GET, ACK],
    reply: async (reply, { request, repo }) => {
      if (reply.status < 400 || !isObject(reply.body) || reply.body.code !== 'InvalidId') return reply;
      const id = request.params.id ?? decodeURIComponent(request.path.split('/').pop() ?? '');
      return (await repo.pendingBatch(undefined, id))
        ? { status: 403, body: operationOutcome('MSG_FORBIDDEN', `Batch ${id} belongs to another site`) }
        : reply;
    },
  },
];
