/**
 * Variants of Document 3: choices its text or spec/decisions.md allow. See ./types.ts.
 */
import { multipartFields } from '../router/diary.ts';
import { ApiError, operationOutcome } from '../router/errors.ts';
import { DEFAULT_COUNT } from '../router/paging.ts';
import type { SandboxReply, SandboxRequest } from '../router/types.ts';
import type { Repository } from '../repo/repository.ts';
import {
  arr,
  errorCodeOf,
  isObject,
  mapObjects,
  mapResources,
  nullMembers,
  type JsonObject,
} from '../modifiers/json.ts';
import type { Variant } from './types.ts';

const SITES_V1 = 'list-authorised-sites-v1';
const SITES_V2 = 'list-authorised-sites-v2';
const USER_INFO = 'get-user-info';
const USER_DETAILS = 'get-user-details';
const SITE_USERS = 'get-site-users';
const EVENT = 'get-event-info';
const SUBSCRIPTIONS = 'list-site-subscriptions';
const PAYORS = 'list-site-payors';
const PATIENT_READS = ['create-patient', 'get-patient', 'update-patient'];
const DIARY_LISTS = ['list-episode-types', 'list-appointment-statuses', 'list-recurrence-types'];
const CONTRACT_DELETES = [
  'delete-payor',
  'delete-contact-payor',
  'delete-contract-service',
  'delete-contract-service-with-procedure',
];
const PRICED = [
  'get-effective-prices',
  'set-contract-service',
  'set-contract-service-with-procedure',
  'set-contract-price',
];

const okBody = (reply: SandboxReply): reply is SandboxReply & { body: JsonObject | unknown[] } =>
  reply.status >= 200 && reply.status < 300 && (isObject(reply.body) || Array.isArray(reply.body));

/** The sites of a v1 (array) or v2 (`{sites}`) answer, each rewritten. */
function mapSites(reply: SandboxReply, visit: (s: JsonObject) => JsonObject): SandboxReply {
  if (!okBody(reply)) return reply;
  if (Array.isArray(reply.body)) return { ...reply, body: reply.body.map((s) => (isObject(s) ? visit(s) : s)) };
  const body = reply.body as JsonObject;
  return Array.isArray(body.sites)
    ? { ...reply, body: { ...body, sites: body.sites.map((s) => (isObject(s) ? visit(s) : s)) } }
    : reply;
}

/** `ACTIVE` written `Active` (any other value kept). */
const titleCase = (v: unknown): unknown => (v === 'ACTIVE' ? 'Active' : v);

/** The code of the first issue of an OperationOutcome reply, or undefined. */
function outcomeCode(reply: SandboxReply): string | undefined {
  const issue = isObject(reply.body) && Array.isArray(reply.body.issue) ? reply.body.issue[0] : undefined;
  const coding =
    isObject(issue) && isObject(issue.details) && Array.isArray(issue.details.coding)
      ? issue.details.coding[0]
      : undefined;
  return isObject(coding) && typeof coding.code === 'string' ? coding.code : undefined;
}

const diagnosticsOf = (reply: SandboxReply): string => {
  const issue = isObject(reply.body) && Array.isArray(reply.body.issue) ? reply.body.issue[0] : undefined;
  return isObject(issue) && typeof issue.diagnostics === 'string' ? issue.diagnostics : '';
};

/** Paging of the payor listing as the request asked it (the variant pages itself). */
const PAGING_HEADER = 'x-variant-payor-paging';
const VARIANT_PAYOR_PAGE_SIZE = 2;

/** Patients deleted per sandbox (its unwrapped repository), for the variants that answer them apart. */
const deletedPatientIds = new WeakMap<Repository, Set<string>>();
const deletedIdsOf = (data: Repository): Set<string> => {
  const ids = deletedPatientIds.get(data) ?? new Set<string>();
  deletedPatientIds.set(data, ids);
  return ids;
};

/** A repository modifier that remembers the ids of the patients it deleted (deletedIdsOf). */
const remembersDeletedPatients: NonNullable<Variant['repo']> = (repo, { repo: data }) => ({
  ...repo,
  removePatient: async (siteId, id) => {
    const removed = await repo.removePatient(siteId, id);
    if (removed) deletedIdsOf(data).add(id);
    return removed;
  },
});

/** The patient ids a Condition body's notes name (`patient/<id>`, D3 2.5), none when it is not JSON. */
function conditionPatients(rawBody: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return [];
  }
  return arr(isObject(body) ? body.note : undefined)
    .map((n) => (isObject(n) && isObject(n.authorReference) ? n.authorReference.reference : undefined))
    .filter((r): r is string => typeof r === 'string')
    .map((r) => r.replace(/^patient\//i, ''));
}

/** The JSON body of a request, or undefined when it is not JSON. */
function jsonBody(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    return undefined;
  }
}

/** An e-mail address as a validating server reads one: `local@host.tld`, no spaces. */
const EMAIL_FORM = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The first telecom `value` of `system` `email` that is not of the e-mail form, or undefined. */
function malformedEmail(resource: unknown): string | undefined {
  const bad = arr(isObject(resource) ? resource.telecom : undefined).find(
    (t) => isObject(t) && t.system === 'email' && !(typeof t.value === 'string' && EMAIL_FORM.test(t.value)),
  );
  return isObject(bad) ? String(bad.value) : undefined;
}

/** Diary codes that gave an authorisation (response 2 or 3), per sandbox (its unwrapped repository). */
const usedDiaryCodes = new WeakMap<Repository, Set<string>>();
const usedCodesOf = (data: Repository): Set<string> => {
  const codes = usedDiaryCodes.get(data) ?? new Set<string>();
  usedDiaryCodes.set(data, codes);
  return codes;
};

/** The `Code` field of a post authorisation (multipart/form-data, or form-urlencoded as the sandbox reads it). */
function postAuthCode(request: SandboxRequest): string {
  const type = request.headers['content-type'] ?? '';
  const fields = /multipart\/form-data/i.test(type)
    ? multipartFields(type, request.rawBody)
    : new Map(new URLSearchParams(request.rawBody));
  return (fields.get('Code') ?? '').trim();
}

export const D3_VARIANTS: readonly Variant[] = [
  {
    name: 'accounts-optional-members-null',
    kind: 'null-optional',
    allowedBy: ['DEC-D3-23', 'DEC-D3-22', 'D3 2.2'],
    description:
      "Accounts objects write optional members as null: user info `title`, `middlename`, `creationdate` and `lastupdatedon`; user details `title` and `middlename` and each site's `description`; Site `description` and `identifier` (v1 and v2); site users' `middleName`.",
    operations: [USER_INFO, USER_DETAILS, SITES_V1, SITES_V2, SITE_USERS],
    reply: (reply, scope) => {
      if (!okBody(reply)) return reply;
      const op = scope.operations[0];
      if (op === SITES_V1 || op === SITES_V2)
        return mapSites(reply, (s) => nullMembers(s, ['description', 'identifier']));
      const body = reply.body as JsonObject;
      if (op === USER_INFO && isObject(body.user))
        return {
          ...reply,
          body: { ...body, user: nullMembers(body.user, ['title', 'middlename', 'creationdate', 'lastupdatedon']) },
        };
      if (op === USER_DETAILS && Array.isArray(body.sites)) {
        return {
          ...reply,
          body: {
            ...nullMembers(body, ['title', 'middlename']),
            sites: body.sites.map((s) => (isObject(s) ? nullMembers(s, ['description']) : s)),
          },
        };
      }
      if (op === SITE_USERS && Array.isArray(body.users))
        return {
          ...reply,
          body: { ...body, users: body.users.map((u) => (isObject(u) ? nullMembers(u, ['middleName']) : u)) },
        };
      return reply;
    },
  },
  {
    name: 'site-status-title-case',
    kind: 'letter-case',
    allowedBy: ['DEC-D3-26'],
    description:
      "Site and user states are written `Active` instead of `ACTIVE` (authorised sites v1 and v2, user details `status` and a `status` on each of its sites, the event's site and parent site).",
    operations: [SITES_V1, SITES_V2, USER_DETAILS, EVENT],
    reply: (reply, scope) => {
      if (!okBody(reply)) return reply;
      const op = scope.operations[0];
      if (op === SITES_V1 || op === SITES_V2) return mapSites(reply, (s) => ({ ...s, status: titleCase(s.status) }));
      // User details entries carry no status in the sandbox: here each says it is `Active` (DEC-D3-27: judged when present).
      const body =
        op === USER_DETAILS && isObject(reply.body) && Array.isArray(reply.body.sites)
          ? { ...reply.body, sites: reply.body.sites.map((s) => (isObject(s) ? { ...s, status: 'Active' } : s)) }
          : reply.body;
      return { ...reply, body: mapObjects(body, (o) => ('status' in o ? { ...o, status: titleCase(o.status) } : o)) };
    },
  },
  {
    name: 'payors-reserved-listed-last',
    kind: 'order',
    allowedBy: ['DEC-D3-12', 'DEC-D3-37', 'D3 4.5 (the order and page size of the payor listing are not shown)'],
    description: `The site's payor listing lists slf and na after the other payors and pages by ${VARIANT_PAYOR_PAGE_SIZE} when no count is asked: the reserved payors are on a later page.`,
    operations: [PAYORS],
    request: (request) => {
      const page = request.query.get('page') ?? '1';
      const count = request.query.get('count') ?? String(VARIANT_PAYOR_PAGE_SIZE);
      const query = new URLSearchParams(request.query);
      query.set('page', '1');
      query.set('count', '1000');
      return { ...request, query, headers: { ...request.headers, [PAGING_HEADER]: `${page},${count}` } };
    },
    reply: (reply, scope) => {
      if (reply.status !== 200 || !isObject(reply.body) || !Array.isArray(reply.body.entry)) return reply;
      const [page, count] = (scope.request.headers[PAGING_HEADER] ?? `1,${DEFAULT_COUNT}`).split(',').map(Number);
      const reserved = (e: unknown) => JSON.stringify(e).match(/"Organization\/(slf|na)"/) !== null;
      const ordered = [...reply.body.entry.filter((e) => !reserved(e)), ...reply.body.entry.filter(reserved)];
      const start = (page - 1) * count;
      const meta =
        isObject(reply.body.meta) && Array.isArray(reply.body.meta.tag)
          ? {
              ...reply.body.meta,
              tag: reply.body.meta.tag.map((t) =>
                isObject(t) && t.code === 'page'
                  ? { ...t, display: String(page) }
                  : isObject(t) && t.code === 'count'
                    ? { ...t, display: String(count) }
                    : t,
              ),
            }
          : reply.body.meta;
      return { ...reply, body: { ...reply.body, meta, entry: ordered.slice(start, start + count) } };
    },
  },
  {
    name: 'condition-reference-capitalised',
    kind: 'letter-case',
    allowedBy: ['DEC-D3-34'],
    description:
      'The created Condition names its patient `Patient/<id>` (capitalised) in `note[].authorReference.reference`.',
    operations: ['create-condition'],
    reply: (reply) =>
      okBody(reply)
        ? {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              typeof o.reference === 'string' && o.reference.startsWith('patient/')
                ? { ...o, reference: `Patient/${o.reference.slice('patient/'.length)}` }
                : o,
            ),
          }
        : reply,
  },
  {
    name: 'patient-birthdate-table-name',
    kind: 'naming',
    allowedBy: ['DEC-D3-31'],
    description: "Patients are answered with the birth date under the table's name `birthdate` instead of `birthDate`.",
    operations: PATIENT_READS,
    reply: (reply) =>
      okBody(reply)
        ? {
            ...reply,
            body: mapResources(reply.body, 'Patient', (p) => {
              if (!('birthDate' in p)) return p;
              const { birthDate, ...rest } = p;
              return { ...rest, birthdate: birthDate };
            }),
          }
        : reply,
  },
  {
    name: 'patient-errors-other-fitting-codes',
    kind: 'error-code',
    allowedBy: ['DEC-D3-53', 'D3-7-25', 'D3-7-26', 'D3-7-24'],
    description:
      'Patient refusals use the other fitting code of the table at its documented status: a malformed `birthDate` 400 `MSG_INVALID_FORMAT` (not 422 `MSG_DATE_FORMAT`), a body of another `resourceType` 422 `MSG_PARAM_INVALID` (not 400 `INVALID_RESOURCE`), a Condition without `note` 400 `INVALID_RESOURCE`.',
    operations: ['create-patient', 'create-condition'],
    reply: (reply, scope) => {
      const code = outcomeCode(reply);
      if (reply.status < 400 || code === undefined) return reply;
      const d = diagnosticsOf(reply);
      const op =
        scope.operations.includes('create-condition') && /Condition/.test(d) ? 'create-condition' : 'create-patient';
      if (code === 'MSG_DATE_FORMAT' && /birthDate/.test(d))
        return { ...reply, status: 400, body: operationOutcome('MSG_INVALID_FORMAT', d, ['Patient']) };
      if (code === 'INVALID_RESOURCE' && reply.status === 400 && /Expected a (Patient|Condition)/.test(d))
        return {
          ...reply,
          status: 422,
          body: operationOutcome('MSG_PARAM_INVALID', d, [op === 'create-condition' ? 'Condition' : 'Patient']),
        };
      if (code === 'MSG_MISSING_MANDATORY_PARAM' && /note/.test(d))
        return { ...reply, status: 400, body: operationOutcome('INVALID_RESOURCE', d, ['Condition']) };
      return reply;
    },
  },
  {
    name: 'subscriptions-as-list',
    kind: 'serialisation',
    allowedBy: ['DEC-D3-24'],
    description:
      'List site subscriptions writes `subscriptions` as a list of subscription objects instead of one object.',
    operations: [SUBSCRIPTIONS],
    reply: (reply) =>
      okBody(reply) && isObject(reply.body) && isObject(reply.body.subscriptions)
        ? { ...reply, body: { ...reply.body, subscriptions: [reply.body.subscriptions] } }
        : reply,
  },
  {
    name: 'deleted-outcome-text-forms',
    kind: 'serialisation',
    allowedBy: ['DEC-D3-59'],
    description:
      'Contract delete outcomes write `location` as the text `CONTRACTS` and `expression` as an empty string, and put an informational issue before the MSG_DELETED_ID one.',
    operations: CONTRACT_DELETES,
    reply: (reply) => {
      if (!okBody(reply) || !isObject(reply.body) || !Array.isArray(reply.body.issue)) return reply;
      const issues = reply.body.issue.map((i) => (isObject(i) ? { ...i, location: 'CONTRACTS', expression: '' } : i));
      return {
        ...reply,
        body: {
          ...reply.body,
          issue: [{ severity: 'information', code: 'informational', diagnostics: 'Request processed' }, ...issues],
        },
      };
    },
  },
  {
    name: 'token-details-code-as-text',
    kind: 'serialisation',
    allowedBy: ['DEC-D3-49'],
    description: 'Token-details error bodies carry `code` as text (`"400"`) instead of a number.',
    operations: ['get-idp-token-details'],
    reply: (reply) =>
      reply.status >= 400 && isObject(reply.body) && reply.body.status === 'fail' && typeof reply.body.code === 'number'
        ? { ...reply, body: { ...reply.body, code: String(reply.body.code) } }
        : reply,
  },
  {
    name: 'diary-success-false',
    kind: 'data',
    allowedBy: ['DEC-D3-11'],
    description:
      'Diary lists carry `success: false` with their data, as the example of 2.3 shows (the meaning of `success` is not stated).',
    operations: DIARY_LISTS,
    reply: (reply) =>
      okBody(reply) && isObject(reply.body) && reply.body.success === true
        ? { ...reply, body: { ...reply.body, success: false } }
        : reply,
  },
  {
    name: 'contract-asset-type-list',
    kind: 'serialisation',
    allowedBy: ['DEC-D3-35'],
    description:
      "Price Contracts write `term[].asset[].type` as a list of CodeableConcepts (FHIR's form) instead of one.",
    operations: PRICED,
    reply: (reply) =>
      okBody(reply)
        ? {
            ...reply,
            body: mapResources(
              reply.body,
              'Contract',
              (c) =>
                mapObjects(c, (o, path) =>
                  path[path.length - 1] === 'asset' && isObject(o.type) ? { ...o, type: [o.type] } : o,
                ) as JsonObject,
            ),
          }
        : reply,
  },
  {
    name: 'introspect-client-token-success',
    kind: 'data',
    allowedBy: ['DEC-D3-40'],
    description:
      "Introspect answers a client-credentials token of an active client account with 200 `{status: 'success'}` instead of 400 `userId not found in authentication token`.",
    operations: ['introspect'],
    reply: (reply) =>
      reply.status === 400 && isObject(reply.body) && reply.body.message === 'userId not found in authentication token'
        ? { ...reply, status: 200, body: { status: 'success' } }
        : reply,
  },
  {
    name: 'writes-other-2xx',
    kind: 'protocol',
    allowedBy: ['DEC-D3-52'],
    description:
      'Successful patient and contract writes use another 2xx status: create patient and add condition answer 200 (not 201); create or update payor, contact payor and the set-contract operations answer 201.',
    operations: [
      'create-patient',
      'create-condition',
      'upsert-payor',
      'upsert-contact-payor',
      ...PRICED.filter((o) => o !== 'get-effective-prices'),
    ],
    reply: (reply, scope) => {
      if (
        reply.status === 201 &&
        (scope.operations.includes('create-patient') || scope.operations.includes('create-condition'))
      )
        return { ...reply, status: 200 };
      if (
        reply.status === 200 &&
        !scope.operations.includes('create-patient') &&
        !scope.operations.includes('create-condition') &&
        !scope.operations.includes('get-effective-prices')
      )
        return { ...reply, status: 201 };
      return reply;
    },
  },
  {
    name: 'token-details-redirect-checked-first',
    kind: 'order',
    allowedBy: ['DEC-D3-48', 'D3 7 (the order of the token-details checks is not shown)'],
    description:
      'Token details checks `redirect_uri` before client authentication: a request without `redirect_uri` is answered 400 `redirect_uri is required` whatever its Authorization.',
    operations: ['get-idp-token-details'],
    reply: (reply, scope) =>
      reply.status === 401 && (scope.request.query.get('redirect_uri') ?? '').trim() === ''
        ? { ...reply, status: 400, body: { status: 'fail', message: 'redirect_uri is required', code: 400 } }
        : reply,
  },
  {
    name: 'condition-deleted-patient-404',
    kind: 'error-code',
    allowedBy: [
      'DEC-D3-38',
      'D3 4.4 ("the patient must already exist")',
      'D3 7 (404 MSG_ENTITY_NOT_FOUND_IN_DATABASE is a code of "Patient create, get, condition operations")',
    ],
    description:
      'A condition for a deleted patient is refused with 404 `MSG_ENTITY_NOT_FOUND_IN_DATABASE` (a patient that never existed keeps 422 `MSG_REFERENCE_ID_NOT_FOUND`).',
    operations: ['create-condition', 'delete-patient'],
    repo: remembersDeletedPatients,
    reply: (reply, scope) => {
      if (reply.status !== 422 || errorCodeOf(reply.body) !== 'MSG_REFERENCE_ID_NOT_FOUND') return reply;
      const named = conditionPatients(scope.request.rawBody);
      return named.some((id) => deletedIdsOf(scope.repo).has(id))
        ? {
            status: 404,
            body: operationOutcome('MSG_ENTITY_NOT_FOUND_IN_DATABASE', 'Patient not found', ['Condition']),
          }
        : reply;
    },
  },
  {
    name: 'patient-deleted-get-reference-id-not-found',
    kind: 'error-code',
    allowedBy: [
      'DEC-D3-08',
      'D3-7-47',
      'D3 7 (422 MSG_REFERENCE_ID_NOT_FOUND is a code of "Patient create, get, condition operations", tied to no request)',
    ],
    description:
      'Get of a deleted patient is refused with 422 `MSG_REFERENCE_ID_NOT_FOUND` (the path names an id no longer held) instead of 404 `MSG_ENTITY_NOT_FOUND_IN_DATABASE`; an id never held keeps the 404.',
    operations: ['get-patient', 'delete-patient'],
    repo: remembersDeletedPatients,
    reply: (reply, scope) => {
      if (!scope.operations.includes('get-patient') || scope.request.method !== 'GET') return reply;
      if (reply.status !== 404 || errorCodeOf(reply.body) !== 'MSG_ENTITY_NOT_FOUND_IN_DATABASE') return reply;
      const id = scope.request.params.patient_id;
      return id !== undefined && deletedIdsOf(scope.repo).has(id)
        ? {
            status: 422,
            body: operationOutcome('MSG_REFERENCE_ID_NOT_FOUND', `Patient ${id} was deleted`, ['Patient']),
          }
        : reply;
    },
  },
  {
    name: 'condition-unknown-patient-entity-not-found',
    kind: 'error-code',
    allowedBy: [
      'DEC-D3-08',
      'D3-7-48',
      'D3 7 (404 MSG_ENTITY_NOT_FOUND_IN_DATABASE is a code of "Patient create, get, condition operations", tied to no request)',
    ],
    description:
      'A condition naming a patient the sandbox never held is refused with 404 `MSG_ENTITY_NOT_FOUND_IN_DATABASE` instead of 422 `MSG_REFERENCE_ID_NOT_FOUND` (a deleted patient keeps the 422).',
    operations: ['create-condition', 'delete-patient'],
    repo: remembersDeletedPatients,
    reply: (reply, scope) => {
      if (reply.status !== 422 || errorCodeOf(reply.body) !== 'MSG_REFERENCE_ID_NOT_FOUND') return reply;
      const named = conditionPatients(scope.request.rawBody);
      return named.length > 0 && !named.some((id) => deletedIdsOf(scope.repo).has(id))
        ? {
            status: 404,
            body: operationOutcome('MSG_ENTITY_NOT_FOUND_IN_DATABASE', 'Patient not found', ['Condition']),
          }
        : reply;
    },
  },
  {
    name: 'contract-price-id-required',
    kind: 'validation',
    allowedBy: [
      'DEC-D3-60',
      'D3 4.5 (Set contract service: input "Contract with `id`, `subject` (site), `term[].asset[]`")',
    ],
    description:
      'The three set-contract operations refuse a Contract without `id` with 400 `MSG_MISSING_MANDATORY_PARAM`, as 4.5 lists the `id` among the input.',
    operations: ['set-contract-service', 'set-contract-service-with-procedure', 'set-contract-price'],
    reply: (reply, scope) => {
      let body: unknown;
      try {
        body = JSON.parse(scope.request.rawBody);
      } catch {
        return reply;
      }
      if (!isObject(body) || (typeof body.id === 'string' && body.id.trim() !== '')) return reply;
      return { status: 400, body: operationOutcome('MSG_MISSING_MANDATORY_PARAM', 'Contract.id is required') };
    },
  },
  {
    name: 'token-details-unknown-idp-first',
    kind: 'order',
    allowedBy: ['DEC-R-04', 'D3 7 (the order of the token-details checks is not shown)', 'DEC-D3-48'],
    description:
      'Token details refuses an identity provider it does not know (any `<idp>` but `nhs`) with 404 before it looks at `redirect_uri`.',
    operations: ['get-idp-token-details'],
    reply: (reply, scope) =>
      scope.request.headers.authorization !== undefined && (scope.request.params.idp ?? '') !== 'nhs'
        ? { status: 404, body: { status: 'fail', message: 'Unknown identity provider', code: 404 } }
        : reply,
  },
  {
    name: 'revoke-unknown-token-refused',
    kind: 'error-code',
    allowedBy: ['DEC-D3-47'],
    description:
      'Revoke answers a token it never issued (and a request without token) with 400 `{error: invalid_request}` instead of 200 (the answer is not shown).',
    operations: ['revoke-token'],
    reply: (reply, scope) =>
      // The sandbox issues 32 base64url characters (server/repo/memoryRepository.ts): a token of another form is one it never issued.
      reply.status === 200 && !/^[A-Za-z0-9_-]{32}$/.test((scope.request.form?.get('token') ?? '').trim())
        ? { ...reply, status: 400, body: { error: 'invalid_request', error_description: 'Unknown token' } }
        : reply,
  },
  {
    name: 'event-creation-date-iso',
    kind: 'date-form',
    allowedBy: ['DEC-D3-28'],
    description:
      'The event resource writes `creationDate` in the ISO form with `T` and an offset (`2024-03-01T09:15:00+00:00`): its form is not given for events.',
    operations: [EVENT],
    reply: (reply) =>
      okBody(reply) &&
      isObject(reply.body) &&
      isObject(reply.body.resource) &&
      typeof reply.body.resource.creationDate === 'string'
        ? {
            ...reply,
            body: {
              ...reply.body,
              resource: {
                ...reply.body.resource,
                creationDate: `${reply.body.resource.creationDate.replace(' ', 'T')}+00:00`,
              },
            },
          }
        : reply,
  },
  {
    name: 'diary-refusals-401',
    kind: 'protocol',
    allowedBy: ['DEC-D3-10', 'D3-4.3-05'],
    description:
      'Post authorisation answers the Unauthorized (1) and SiteNotMapped (3) outcomes with HTTP 401 and 403, keeping the `{access_token, response}` body (the HTTP status of each outcome is not shown).',
    operations: ['diary-post-auth'],
    reply: (reply) => {
      if (reply.status !== 200 || !isObject(reply.body)) return reply;
      if (reply.body.response === 1) return { ...reply, status: 401 };
      if (reply.body.response === 3) return { ...reply, status: 403 };
      return reply;
    },
  },
  {
    name: 'patient-email-validated',
    kind: 'validation',
    allowedBy: ['DEC-D3-68', 'D3 2.4 (the form of a telecom `value` is not given)', 'D3-7-25'],
    description:
      'Create and update patient check the form of an e-mail (`telecom` of `system` `email`): a malformed one is refused, on create with 400 `MSG_INVALID_FORMAT`, on update with 422 `INVALID_RESOURCE` (a code of the update table), and nothing is stored.',
    operations: ['create-patient', 'update-patient'],
    repo: (repo, scope) => ({
      ...repo,
      savePatient: async (record) => {
        const bad = malformedEmail(record.resource);
        if (bad === undefined) return repo.savePatient(record);
        const diagnostics = `Patient.telecom e-mail is not an e-mail address: ${bad}`;
        throw scope.operations.includes('update-patient')
          ? new ApiError(422, 'INVALID_RESOURCE', diagnostics)
          : new ApiError(400, 'MSG_INVALID_FORMAT', diagnostics);
      },
    }),
  },
  {
    name: 'condition-id-refused',
    kind: 'validation',
    allowedBy: ['DEC-D3-69', 'D3 2.5 ("`id` (assigned)")', 'D3-7-29'],
    description:
      'Add condition refuses a body that carries its own `id` or `meta` (members the server assigns) with 422 `MSG_PARAM_INVALID`, and stores nothing.',
    operations: ['create-condition'],
    repo: (repo, scope) => ({
      ...repo,
      saveCondition: async (record) => {
        const sent = jsonBody(scope.request.rawBody);
        const assigned = ['id', 'meta'].filter((m) => isObject(sent) && sent[m] !== undefined);
        if (assigned.length === 0) return repo.saveCondition(record);
        throw new ApiError(422, 'MSG_PARAM_INVALID', `Condition.${assigned.join(' and ')} is assigned by the server`);
      },
    }),
  },
  {
    name: 'diary-code-single-use',
    kind: 'one-time-code',
    allowedBy: ['DEC-D3-70', 'D3 4.3 (whether an authorisation code may be used twice is not shown)'],
    description:
      'Post authorisation accepts an authorisation code once: a code that gave response 2 (Ok) or 3 (SiteNotMapped) is answered as an invalid code (response 1, no `access_token`) on every later use.',
    operations: ['diary-post-auth'],
    reply: (reply, scope) => {
      if (!isObject(reply.body) || typeof reply.body.response !== 'number') return reply;
      const code = postAuthCode(scope.received);
      const used = usedCodesOf(scope.repo);
      if (used.has(code)) {
        const { access_token: _token, ...rest } = reply.body;
        void _token;
        return { ...reply, body: { ...rest, response: 1 } };
      }
      if (code !== '' && (reply.body.response === 2 || reply.body.response === 3)) used.add(code);
      return reply;
    },
  },
  {
    name: 'payor-upsert-without-id-creates',
    kind: 'data',
    allowedBy: ['DEC-D3-71', 'D3 4.5 ("`id` (required for update)")'],
    description:
      'Create or update payor (and contact payor) with a Contract without `id` always creates a new payor Contract, even when the site already holds one for that payor; only a Contract with `id` updates.',
    operations: ['upsert-payor', 'upsert-contact-payor'],
    repo: (repo, scope) => {
      const sent = jsonBody(scope.request.rawBody);
      const withoutId = scope.request.method === 'POST' && isObject(sent) && sent.id === undefined;
      // The reference handler looks the payor up among the site's payors only for a body without id.
      return withoutId ? { ...repo, payors: async () => [] } : repo;
    },
  },
];
