/**
 * Variants of Document 3's silences (spec/silences.ts): each makes one choice a conforming server
 * may make where the decision it names records the documents as silent. See ./types.ts.
 */
import { validateAgainst } from '../../core/schemaRegistry.ts';
import { REQUEST_BODY_SCHEMAS } from '../../spec/requestBodies.ts';
import { ApiError, MessageError, errorReply, operationOutcome } from '../router/errors.ts';
import type { Repository } from '../repo/repository.ts';
import type { SandboxReply, SandboxRequest } from '../router/types.ts';
import { arr, fhirJsonAsPlainJson, isObject, mapAnsweredResources, type JsonObject } from '../modifiers/json.ts';
import type { Variant } from './types.ts';

const PATIENT_ANSWERS = ['create-patient', 'get-patient', 'update-patient'];
const PATIENT_OPS = [...PATIENT_ANSWERS, 'delete-patient', 'create-condition', 'delete-condition'];
const CONTRACT_OPS = [
  'get-effective-prices',
  'list-contract-types',
  'list-contract-subtypes',
  'list-site-payors',
  'upsert-payor',
  'delete-payor',
  'upsert-contact-payor',
  'delete-contact-payor',
  'set-contract-service',
  'delete-contract-service',
  'set-contract-service-with-procedure',
  'delete-contract-service-with-procedure',
  'set-contract-price',
];
const ACCOUNTS_OPS = [
  'introspect',
  'list-features',
  'get-user-info',
  'list-authorised-sites-v1',
  'list-authorised-sites-v2',
  'list-site-subscriptions',
  'get-user-details',
  'get-event-info',
  'get-site-users',
];

const okJson = (reply: SandboxReply): reply is SandboxReply & { body: JsonObject } =>
  reply.status >= 200 && reply.status < 300 && isObject(reply.body);

/** The JSON body of a request, or undefined when it is not JSON. */
function jsonBody(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    return undefined;
  }
}

const bearerOf = (request: SandboxRequest) => /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];

/** Per sandbox (its unwrapped repository): the user-info codes already answered. */
const usedUserInfoCodes = new WeakMap<Repository, Set<string>>();
const usedUserInfoCodesOf = (data: Repository): Set<string> => {
  const codes = usedUserInfoCodes.get(data) ?? new Set<string>();
  usedUserInfoCodes.set(data, codes);
  return codes;
};

/** The prefix this variant's server writes before `/extension/patient/<name>` (its own, not the caller's). */
const OWN_REF_URL = 'https://fhir.variant-server.example/ref';

/** The top-level member an Ajv error line names (`/gender must be string` -> `gender`). */
const memberOfError = (line: string): string | undefined => /^\/([^/\s]+)/.exec(line)?.[1];

/**
 * Members whose form the patient table ties a code to (the birth date's `MSG_DATE_FORMAT`, the
 * extension URLs' `INVALID_EXTENSION` ...; DEC-D3-53, D3-7-25, D3-7-31): the lenient server still
 * refuses them as the reference does. A telecom list is kept when one of its systems is unlisted.
 */
const TIED_TO_A_CODE = ['resourceType', 'id', 'birthDate', 'active', 'deceasedBoolean', 'extension'];
const TELECOM_SYSTEMS = ['phone', 'email', 'sms'];
const droppable = (body: JsonObject, member: string): boolean =>
  member in body &&
  !TIED_TO_A_CODE.includes(member) &&
  (member !== 'telecom' || arr(body.telecom).every((t) => isObject(t) && TELECOM_SYSTEMS.includes(String(t.system))));

/**
 * A Patient body with its optional members of the wrong shape left out (the lenient server of
 * DEC-D3-67): member by member until the body validates, never one whose form a code is tied to.
 */
function withoutMisshapenMembers(schemaFile: string, body: JsonObject): JsonObject {
  let out = body;
  for (let round = 0; round < 20; round++) {
    const result = validateAgainst(schemaFile, out);
    if (result.valid) return out;
    const member = result.errors
      .filter((e) => !/must have required property/.test(e))
      .map(memberOfError)
      .find((m) => m !== undefined && droppable(out, m));
    if (member === undefined) return out;
    const { [member]: _dropped, ...rest } = out;
    void _dropped;
    out = rest;
  }
  return out;
}

export const D3_SILENCE_VARIANTS: readonly Variant[] = [
  {
    name: 'delete-payor-example-names-refused',
    kind: 'naming',
    allowedBy: [
      'DEC-D3-14',
      'D3 4.5 (the table names `payorId` / `payorType`; only the example names `payerId` / `payerType`)',
    ],
    description:
      "Delete payor and delete contact as payor read only the table's names `payorId` and `payorType`: the example's `payerId` / `payerType` are not read, so a request naming only them is refused as missing its parameters (400 `MSG_MISSING_MANDATORY_PARAM`).",
    operations: ['delete-payor', 'delete-contact-payor'],
    request: (request) => {
      if (!request.query.has('payerId') && !request.query.has('payerType')) return request;
      const query = new URLSearchParams(request.query);
      query.delete('payerId');
      query.delete('payerType');
      return { ...request, query };
    },
  },
  {
    name: 'procedure-without-service-422',
    kind: 'error-code',
    allowedBy: [
      'DEC-D3-15',
      'D3 7 ("Contract operations and code-set style lists return no operation-specific errors")',
    ],
    description:
      'A set-contract request whose procedure comes without its service code is refused with 422 `MSG_PARAM_INVALID` instead of 400 `MSG_MISSING_MANDATORY_PARAM` (no code or status is tied to it).',
    operations: ['set-contract-service', 'set-contract-service-with-procedure', 'set-contract-price'],
    reply: (reply) => {
      if (reply.status !== 400 || !isObject(reply.body)) return reply;
      const text = JSON.stringify(reply.body);
      return /MSG_MISSING_MANDATORY_PARAM/.test(text) && /service code/i.test(text) && /procedure/i.test(text)
        ? {
            ...reply,
            status: 422,
            body: operationOutcome('MSG_PARAM_INVALID', 'A procedure code must come with its service code'),
          }
        : reply;
    },
  },
  {
    name: 'sign-off-answers-without-body',
    kind: 'protocol',
    allowedBy: ['DEC-D3-19', 'D3 4.2 (the bodies of the logout and revoke answers are not shown)'],
    description:
      'Logout and a successful revoke answer HTTP 200 with no body (no Content-Type) instead of `{status: "success"}`.',
    operations: ['logout', 'revoke-token'],
    reply: (reply) => (reply.status === 200 ? { status: 200, headers: reply.headers } : reply),
  },
  {
    name: 'd3-fhir-answers-plain-json',
    kind: 'protocol',
    allowedBy: ['DEC-D3-20', 'D3 4.4 (`Content-Type: application/fhir+json` is listed among the request headers)'],
    description:
      'The patient and contract operations answer with `Content-Type: application/json` instead of `application/fhir+json` (a JSON media type; the media type of these answers is not named).',
    operations: [...PATIENT_OPS, ...CONTRACT_OPS],
    wire: fhirJsonAsPlainJson,
  },
  {
    name: 'sites-v1-lists-child-sites',
    kind: 'data',
    allowedBy: [
      'DEC-D3-25',
      'D3 4.1 (version 1 lists "active sites of the user"; the relation to child sites is not stated)',
    ],
    description:
      "List authorised sites version 1 lists the active child sites of the user's sites too (SITE006, child of SITE001), as version 2 does.",
    operations: ['list-authorised-sites-v1'],
    repo: (repo) => ({
      ...repo,
      users: async () => {
        const sites = await repo.sites();
        return (await repo.users()).map((u) => ({
          ...u,
          siteIds: [
            ...u.siteIds,
            ...sites
              .filter((s) => s.parentId !== undefined && u.siteIds.includes(s.parentId) && !u.siteIds.includes(s.id))
              .map((s) => s.id),
          ],
        }));
      },
    }),
  },
  {
    name: 'user-details-other-user-refused',
    kind: 'error-code',
    allowedBy: ['DEC-D3-27', 'D3 4.1 (`SU-UserId` with a user token is not described)'],
    description:
      "Get user details with a user token and `SU-UserId` naming another user is refused with 403 `The client account <user> does not have access to this user <id>` instead of answering the token's user.",
    operations: ['get-user-details'],
    reply: (reply, scope) => {
      const asked = (scope.request.headers['su-userid'] ?? '').trim();
      if (!okJson(reply) || asked === '' || typeof reply.body.userId !== 'string' || reply.body.userId === asked)
        return reply;
      return errorReply(
        new MessageError(
          403,
          `The client account ${reply.body.userId} does not have access to this user ${asked}`,
          'accounts',
        ),
        scope.operations,
      );
    },
  },
  {
    name: 'patient-extension-urls-own-prefix',
    kind: 'naming',
    allowedBy: ['DEC-D3-30', 'D3 2.4 (`{ref_url}` is not defined in Document 3)'],
    description: `Patients are answered with their extension URLs under the server's own prefix (\`${OWN_REF_URL}/extension/patient/<name>\`), whatever prefix the request used.`,
    operations: PATIENT_ANSWERS,
    reply: (reply) =>
      mapAnsweredResources(reply, 'Patient', (p) => ({
        ...p,
        ...(Array.isArray(p.extension)
          ? {
              extension: p.extension.map((e) =>
                isObject(e) && typeof e.url === 'string'
                  ? { ...e, url: e.url.replace(/^.*(\/extension\/patient\/[^/]+)$/, `${OWN_REF_URL}$1`) }
                  : e,
              ),
            }
          : {}),
      })),
  },
  {
    name: 'patient-telecom-entry-added',
    kind: 'data',
    allowedBy: ['DEC-D3-32', 'D3 2.4 (the table gives 0-1 for phone and e-mail; the payload shows `telecom[]`)'],
    description:
      'Patients are answered with one more telecom entry than was sent: a `phone` of use `work` (with its `id`, as 2.4 has telecom carry one on read), the practice number the server adds, after the entries sent.',
    operations: PATIENT_ANSWERS,
    reply: (reply) =>
      mapAnsweredResources(reply, 'Patient', (p) => ({
        ...p,
        telecom: [
          ...arr(p.telecom),
          { id: `${String(p.id)}-work-phone`, system: 'phone', value: '020 7946 0000', use: 'work' },
        ],
      })),
  },
  {
    name: 'patient-narrative-and-entry-ids',
    kind: 'data',
    allowedBy: [
      'DEC-D3-33',
      'D3 4.4 (create returns "the created Patient"; equality with what was sent is not spelled out)',
    ],
    description:
      "Patients are answered with a generated narrative `text` and with `id`s on their `name` entries, members the server assigns (telecom and address ids are the reference's own).",
    operations: PATIENT_ANSWERS,
    reply: (reply) =>
      mapAnsweredResources(reply, 'Patient', (p) => ({
        ...p,
        text: {
          status: 'generated',
          div: `<div xmlns="http://www.w3.org/1999/xhtml">Patient ${String(p.id)}</div>`,
        },
        ...(Array.isArray(p.name)
          ? { name: p.name.map((n, k) => (isObject(n) ? { id: `name-${k + 1}`, ...n } : n)) }
          : {}),
      })),
  },
  {
    name: 'accounts-no-token-403',
    kind: 'error-code',
    allowedBy: ['DEC-D3-39', 'D3 5 (the answer without credentials is not shown for the accounts operations)'],
    description:
      'The accounts operations refuse a request without `Authorization` with 403 (the `{message, code}` body kept) instead of 401.',
    operations: ACCOUNTS_OPS,
    reply: (reply, scope) =>
      reply.status === 401 && (scope.request.headers.authorization ?? '').trim() === ''
        ? {
            ...reply,
            status: 403,
            body: isObject(reply.body) && 'code' in reply.body ? { ...reply.body, code: 403 } : reply.body,
            headers: Object.fromEntries(
              Object.entries(reply.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'www-authenticate'),
            ),
          }
        : reply,
  },
  {
    name: 'features-narrowed-by-site',
    kind: 'data',
    allowedBy: ['DEC-D3-42', 'D3 4.1 (List features takes an optional `SU-SiteId`; its effect is not shown)'],
    description:
      "List features with `SU-SiteId` lists only the features that site enables: here the first of the role's features (without the header, all of them).",
    operations: ['list-features'],
    reply: (reply, scope) =>
      okJson(reply) && (scope.request.headers['su-siteid'] ?? '').trim() !== '' && Array.isArray(reply.body.features)
        ? { ...reply, body: { ...reply.body, features: reply.body.features.slice(0, 1) } }
        : reply,
  },
  {
    name: 'user-info-code-single-use',
    kind: 'one-time-code',
    allowedBy: ['DEC-D3-43', 'D3 4.1 (whether a user-info `code` can be used twice is not shown)'],
    description:
      'Get user info accepts a code once: a code that gave the user info is answered 422 `Secret code not found` on every later use.',
    operations: ['get-user-info'],
    reply: (reply, scope) => {
      const code = (scope.request.query.get('code') ?? '').trim();
      if (code === '' || reply.status !== 200) return reply;
      const used = usedUserInfoCodesOf(scope.repo);
      if (used.has(code))
        return errorReply(new MessageError(422, 'Secret code not found', 'accounts'), scope.operations);
      used.add(code);
      return reply;
    },
  },
  {
    name: 'invalid-site-answer-more-members',
    kind: 'data',
    allowedBy: [
      'DEC-D3-44',
      "D3 4.1 (an invalid site id gets 200 `{message: 'Siteid is invalid : <site_id>'}`; other members are not excluded)",
    ],
    description:
      'Get users by site answers an invalid site id with the documented `message` and also `siteId` (the id sent), `users: []` and `status: "fail"`.',
    operations: ['get-site-users'],
    reply: (reply, scope) =>
      okJson(reply) && typeof reply.body.message === 'string' && reply.body.message.startsWith('Siteid is invalid')
        ? {
            ...reply,
            body: { ...reply.body, siteId: scope.request.params.siteId ?? '', users: [], status: 'fail' },
          }
        : reply,
  },
  {
    name: 'sites-page-past-last-404',
    kind: 'paging',
    allowedBy: ['DEC-D3-45', 'D3 4.1 (a page beyond the last is not shown)'],
    description:
      'List authorised sites version 2 answers a `pageNumber` beyond the last page (of a non-empty result) with 404 `{message: "Page not found", code: 404}`.',
    operations: ['list-authorised-sites-v2'],
    reply: (reply, scope) => {
      if (!okJson(reply) || !isObject(reply.body.pagination)) return reply;
      const { currentPage, totalPages } = reply.body.pagination;
      return typeof currentPage === 'number' &&
        typeof totalPages === 'number' &&
        totalPages > 0 &&
        currentPage > totalPages
        ? errorReply(
            new MessageError(404, `Page not found: ${currentPage} of ${totalPages}`, 'accounts'),
            scope.operations,
          )
        : reply;
    },
  },
  {
    name: 'diary-state-token-as-state',
    kind: 'naming',
    allowedBy: [
      'DEC-D3-50',
      'D3 4.3 (`StateToken` is "opaque value returned unchanged"; the answer `{access_token, response}` shows no member for it)',
    ],
    description:
      'Post authorisation returns the `StateToken` unchanged under a member `state` (the answer 4.3 shows has no member for it) instead of `StateToken`.',
    operations: ['diary-post-auth'],
    reply: (reply) => {
      if (!okJson(reply) || !('StateToken' in reply.body)) return reply;
      const { StateToken: state, ...rest } = reply.body;
      return { ...reply, body: { ...rest, state } };
    },
  },
  {
    name: 'diary-refresh-revokes-old-token',
    kind: 'state',
    allowedBy: ['DEC-D3-51', 'D3 4.3 (whether the old token stays valid after a refresh is not shown)'],
    description:
      'Refresh token revokes the diary token it was called with when it issues a new one: the old token is refused (401) by the diary lists afterwards.',
    operations: ['diary-refresh-token'],
    reply: async (reply, scope) => {
      const old = bearerOf(scope.request);
      if (okJson(reply) && reply.body.response === 2 && old !== undefined) await scope.repo.revokeAccessToken(old);
      return reply;
    },
  },
  {
    name: 'patient-update-unknown-id-invalid-resource',
    kind: 'error-code',
    allowedBy: [
      'DEC-D3-54',
      'D3 7 ("Patient update: 422 REFERENCE_NOT_FOUND, 422 INVALID_RESOURCE, ..." with no triggers)',
    ],
    description:
      'Update patient answers an id the site does not hold with 422 `INVALID_RESOURCE` (another code of the update table) instead of 422 `REFERENCE_NOT_FOUND`.',
    operations: ['update-patient'],
    reply: (reply) => {
      if (reply.status !== 422 || !isObject(reply.body)) return reply;
      const text = JSON.stringify(reply.body);
      return /"REFERENCE_NOT_FOUND"/.test(text)
        ? {
            ...reply,
            body: operationOutcome('INVALID_RESOURCE', 'The Patient names no patient of this site', ['Patient']),
          }
        : reply;
    },
  },
  {
    name: 'effective-prices-payor-required',
    kind: 'validation',
    allowedBy: ['DEC-D3-56', 'D3 4.5 (which of `site`, `location`, `payor`, `service-code` are required is not shown)'],
    description:
      'Effective prices require `payor` as well as `site`: a request without it (or with it empty) is refused with 400 `MSG_MISSING_MANDATORY_PARAM`.',
    operations: ['get-effective-prices'],
    reply: (reply, scope) =>
      reply.status < 500 && (scope.request.query.get('payor') ?? '').trim() === ''
        ? { status: 400, body: operationOutcome('MSG_MISSING_MANDATORY_PARAM', 'Parameter payor is required') }
        : reply,
  },
  {
    name: 'price-contracts-without-site-subject',
    kind: 'data',
    allowedBy: [
      'DEC-D3-36',
      'D3 2.6 ("`subject[].reference` (`Site/<site_id>`)", yet "`subject` (practitioner) only for `PRACTITIONER_BESPOKE_CONTRACT` or `SELF_PAY`")',
    ],
    description:
      'Price Contracts carry no `Site/` subject (the site is the one asked for): `subject` names the practitioner of a bespoke or self-pay Contract and is left out of the others, the second reading of 2.6.',
    operations: [
      'get-effective-prices',
      'set-contract-service',
      'set-contract-service-with-procedure',
      'set-contract-price',
    ],
    reply: (reply) =>
      mapAnsweredResources(reply, 'Contract', (c) => {
        const { subject, ...rest } = c;
        const kept = arr(subject).filter((sub) => !(isObject(sub) && /^Site\//.test(String(sub.reference))));
        return kept.length > 0 ? { ...rest, subject: kept } : rest;
      }),
  },
  {
    name: 'contract-subtypes-payor-kinds',
    kind: 'data',
    allowedBy: [
      'DEC-D3-57',
      'D3 2.6 (`subType[].coding[]` "`code` e.g. `I` (insurer payor) or `C` (contact), `display` e.g. `FEE_SCHEDULE`")',
    ],
    description:
      'The contract sub-type ValueSet lists the payor kinds `I` (insurer payor) and `C` (contact), the codes 2.6 shows in `subType`, instead of FEE_SCHEDULE, PRACTITIONER_BESPOKE_CONTRACT and SELF_PAY.',
    operations: ['list-contract-subtypes'],
    reply: (reply) => {
      if (!okJson(reply) || !isObject(reply.body.expansion) || !Array.isArray(reply.body.expansion.contains))
        return reply;
      const first = reply.body.expansion.contains.find(isObject);
      const system = isObject(first) && typeof first.system === 'string' ? { system: first.system } : {};
      const contains = [
        { ...system, code: 'I', display: 'Insurer payor' },
        { ...system, code: 'C', display: 'Contact' },
      ];
      const expansion = { ...reply.body.expansion, contains };
      if ('total' in expansion) expansion.total = contains.length;
      return { ...reply, body: { ...reply.body, expansion } };
    },
  },
  {
    name: 'payor-create-existing-refused',
    kind: 'validation',
    allowedBy: [
      'DEC-D3-58',
      'D3 4.5 (create or update payor: the answer when the payor already exists is not spelled out)',
    ],
    description:
      'Create payor (and contact as payor) without `id` for a payor the site already holds is refused with 422 `MSG_PARAM_INVALID` (send its `id` to update it) instead of answering the existing Contract.',
    operations: ['upsert-payor', 'upsert-contact-payor'],
    repo: (repo, scope) => {
      const sent = jsonBody(scope.request.rawBody);
      if (scope.request.method !== 'POST' || !isObject(sent) || sent.id !== undefined) return repo;
      // The reference handler answers the payor's existing Contract: its save names a held contract id.
      return {
        ...repo,
        savePayor: async (payor) => {
          if ((await repo.payors(payor.siteId)).some((p) => p.contractId === payor.contractId))
            throw new ApiError(
              422,
              'MSG_PARAM_INVALID',
              `Payor ${payor.payorId} is already held by site ${payor.siteId} (contract ${payor.contractId}): send its id to update it`,
            );
          return repo.savePayor(payor);
        },
      };
    },
  },
  {
    name: 'patient-misshapen-members-ignored',
    kind: 'validation',
    allowedBy: ['DEC-D3-67', 'D3 7 (nothing says that every body the documented shape refuses is refused)'],
    description:
      'Create and update patient take a body with an optional member of the wrong shape (a wrong type, an unlisted value) that no code of the table is tied to (`gender`, `name`, `address`, `telecom` of listed systems) and ignore that member, instead of refusing the body; a malformed birth date or extension is still refused.',
    operations: ['create-patient', 'update-patient'],
    request: (request, scope) => {
      const body = jsonBody(request.rawBody);
      if (!isObject(body) || body.resourceType !== 'Patient') return request;
      const op =
        scope.operations.includes('update-patient') && request.method === 'PUT' ? 'update-patient' : 'create-patient';
      const kept = withoutMisshapenMembers(REQUEST_BODY_SCHEMAS[op], body);
      return kept === body ? request : { ...request, rawBody: JSON.stringify(kept) };
    },
  },
];
