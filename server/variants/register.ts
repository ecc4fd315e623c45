/**
 * Variants for silences of the register (spec/silences.ts) that no other variant file proves (issue 30, item 2).
 */
import { operations as OPERATIONS, PATIENT_OPERATIONS } from '../../spec/operations.ts';
import type { Repository } from '../repo/repository.ts';
import { operationOutcome } from '../router/errors.ts';
import type { SandboxReply } from '../router/types.ts';
import { arr, errorCodeOf, isObject, type JsonObject, mapObjects, mapResources, withQuery } from '../modifiers/json.ts';
import type { Variant } from './types.ts';

const FIND_MEMBER = ['find-member-v1', 'find-member-v2'];
const BATCH_OPERATIONS = ['get-remittance-details'];
const REMITTANCE_SUMMARY = 'search-remittance-summary';
const LIST_INSURERS = 'list-insurers';
const DOCUMENT_2 = OPERATIONS.filter((o) => o.document === 'D2').map((o) => o.id);

/** An error answer whose code sits in an OperationOutcome, written as a plain `{code, message}` object. */
const plainError = (reply: SandboxReply): SandboxReply => {
  const code = errorCodeOf(reply.body);
  return reply.status >= 400 && code !== undefined
    ? { ...reply, body: { code, message: `Request refused: ${code}` } }
    : reply;
};

/** The Coverage of a Find Member success answer rewritten by `edit`; any other answer as it is. */
const onCoverage =
  (edit: (coverage: JsonObject) => JsonObject) =>
  (reply: SandboxReply): SandboxReply =>
    reply.status >= 200 && reply.status < 300 && isObject(reply.body) && reply.body.resourceType === 'Coverage'
      ? { ...reply, body: edit(reply.body) }
      : reply;

/** Whether an extension's URL names `name` (`{ref_url}/extension/<name>`). */
const named = (e: unknown, name: string): e is JsonObject =>
  isObject(e) && typeof e.url === 'string' && e.url.endsWith(`/${name}`);

/** The resource with each extension named in `names` rewritten by `edit` (undefined drops it). */
const editExtensions = (r: JsonObject, names: readonly string[], edit: (e: JsonObject) => JsonObject | undefined) => ({
  ...r,
  extension: arr(r.extension).flatMap((e) => {
    if (!names.some((n) => named(e, n))) return [e];
    const out = edit(e as JsonObject);
    return out === undefined ? [] : [out];
  }),
});

/** An error answer of Find Member (2.3) with another code of its table at that code's status. */
const findMemberError = (status: number, code: string, diagnostics: string): SandboxReply => ({
  status,
  body: operationOutcome(code, diagnostics, ['Coverage']),
});

const REGISTER_PRACTITIONERS = 'search-register-practitioners';
const REGISTER_ROLES = 'search-register-practitioner-roles';

/** Letter case and accents folded away: `Smíth` and `SMITH` both read `smith`. */
const folded = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** `Smith` written with an accent on its first vowel (`Smíth`): the same name to a folding match. */
const accented = (s: string): string => s.replace(/[aeiou]/, (v) => `${v}\u0301`).normalize('NFC');

/**
 * The register practitioner the variant shows with an accented family name: the first one whose
 * family name an earlier practitioner also bears (the seed has two Smiths), so a search by the
 * plain name finds both.
 */
async function accentedTwinId(repo: Repository): Promise<string | undefined> {
  const seen = new Set<string>();
  for (const p of await repo.registerPractitioners()) {
    const key = folded(p.family);
    if (seen.has(key)) return p.id;
    seen.add(key);
  }
  return undefined;
}

const jsonPayload = (payload: string | undefined): unknown => {
  if (payload === undefined) return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
};

/** A FHIR resource holding an empty list where FHIR R4 JSON writes none: a Bundle `entry`, an expansion `contains`. */
const emptyListMember = (o: Record<string, unknown>): 'entry' | 'contains' | undefined => {
  if (o.resourceType === 'Bundle' && Array.isArray(o.entry) && o.entry.length === 0) return 'entry';
  if (!('resourceType' in o) && 'offset' in o && Array.isArray(o.contains) && o.contains.length === 0)
    return 'contains';
  return undefined;
};

export const REGISTER_VARIANTS: readonly Variant[] = [
  {
    name: 'empty-bundle-without-entry',
    kind: 'paging',
    allowedBy: ['DEC-R-10', 'FHIR R4 JSON (an empty array is never written)', 'FHIR R4 Bundle.entry 0..*'],
    description:
      'A page past the last, and any result that matches nothing, is a Bundle without an `entry` member (and a ValueSet expansion without `contains`), as FHIR JSON writes an empty list; the documents show neither what a page past the last holds nor how an empty result set is written.',
    operations: 'all',
    wire: (wire) => {
      if (wire.status !== 200) return wire;
      const parsed = jsonPayload(wire.payload);
      if (parsed === undefined) return wire;
      let changed = false;
      const out = mapObjects(parsed, (o) => {
        if (!isObject(o)) return o;
        const member = emptyListMember(o);
        if (member === undefined) return o;
        changed = true;
        const { [member]: _empty, ...rest } = o;
        return rest;
      });
      return changed ? { ...wire, payload: JSON.stringify(out) } : wire;
    },
  },
  {
    name: 'names-matched-ignoring-accents',
    kind: 'filter-match',
    allowedBy: ['DEC-R-11', 'DEC-D2-21', 'DEC-D2-07', 'D2 4.2', 'D2 4.9', 'D2 4.11'],
    description:
      'The register writes one of its two Smiths `Smíth` (in the practitioner lookup too) and matches `family`, `given` and the lookup `text` ignoring letter case and accents, so `family=Smith` and `family=Smíth` both find both; the documents state no match rule for names.',
    operations: [REGISTER_PRACTITIONERS, REGISTER_ROLES, 'lookup-practitioners'],
    request: (req) =>
      ['family', 'given', 'text'].some((p) => req.query.has(p))
        ? withQuery(req, (q) => {
            for (const p of ['family', 'given', 'text']) {
              const v = q.get(p);
              if (v !== null) q.set(p, v.normalize('NFD').replace(/\p{M}/gu, ''));
            }
          })
        : req,
    reply: async (reply, { repo }) => {
      if (reply.status !== 200 || !isObject(reply.body)) return reply;
      const twin = await accentedTwinId(repo);
      if (twin === undefined) return reply;
      const body = mapResources(reply.body, 'Practitioner', (r: JsonObject) =>
        r.id !== twin
          ? r
          : {
              ...r,
              name: arr(r.name).map((n) =>
                isObject(n) && typeof n.family === 'string' ? { ...n, family: accented(n.family) } : n,
              ),
            },
      );
      return { ...reply, body };
    },
  },
  {
    name: 'coverage-expiry-date-only',
    kind: 'date-form',
    allowedBy: ['DEC-D1-06'],
    description:
      "The Coverage `expiryDate` extension carries `valueDate` (the date alone), as the field description names it, instead of the payload's `valueDateTime`.",
    operations: FIND_MEMBER,
    reply: onCoverage((c) =>
      editExtensions(c, ['expiryDate'], ({ valueDateTime, ...e }) =>
        typeof valueDateTime === 'string' ? { ...e, valueDate: valueDateTime.slice(0, 10) } : { ...e, valueDateTime },
      ),
    ),
  },
  {
    name: 'copayment-type-other-case',
    kind: 'letter-case',
    allowedBy: ['DEC-D1-05'],
    description:
      'The Coverage `memberCoPaymentType` is written `Monetary Value` and `percentage` (the letter case of the word value is not shown).',
    operations: FIND_MEMBER,
    reply: onCoverage((c) =>
      editExtensions(c, ['memberCoPaymentType'], (e) =>
        e.valueString === 'Monetary value'
          ? { ...e, valueString: 'Monetary Value' }
          : e.valueString === 'Percentage'
            ? { ...e, valueString: 'percentage' }
            : e,
      ),
    ),
  },
  {
    name: 'coverage-do-not-reject-absent',
    kind: 'null-optional',
    allowedBy: ['DEC-D1-37'],
    description: 'The Coverage carries no `doNotReject` extension (its cardinality is given as "-").',
    operations: FIND_MEMBER,
    reply: onCoverage((c) => editExtensions(c, ['doNotReject'], () => undefined)),
  },
  {
    name: 'coverage-money-as-decimal',
    kind: 'serialisation',
    allowedBy: ['DEC-D1-38'],
    description:
      'The Coverage Money extensions whose value member the documents do not name (`benefitUsed`, `memberExcess`, `excessUsed`) carry `valueDecimal` instead of `valueMoney`.',
    operations: FIND_MEMBER,
    reply: onCoverage((c) =>
      editExtensions(c, ['benefitUsed', 'memberExcess', 'excessUsed'], ({ valueMoney, ...e }) =>
        isObject(valueMoney) && typeof valueMoney.value === 'number'
          ? { ...e, valueDecimal: valueMoney.value }
          : { ...e, valueMoney },
      ),
    ),
  },
  {
    name: 'coverage-patient-name-object',
    kind: 'shape',
    allowedBy: ['DEC-D1-56'],
    description:
      "The contained Patient writes `name` and `address` as one object each (the table gives them 1-1) instead of FHIR's lists.",
    operations: FIND_MEMBER,
    reply: onCoverage(
      (c) =>
        mapResources(c, 'Patient', (p) => ({
          ...p,
          ...(Array.isArray(p.name) && p.name.length === 1 ? { name: p.name[0] } : {}),
          ...(Array.isArray(p.address) && p.address.length === 1 ? { address: p.address[0] } : {}),
        })) as JsonObject,
    ),
  },
  {
    name: 'find-member-version-missing-param-invalid',
    kind: 'error-code',
    allowedBy: ['DEC-D1-20', 'D1 7 (Find Member error table)'],
    description:
      'Find Member answers a request without `SVC-API-Version` with 422 `MSG_PARAM_INVALID` instead of 400 `MSG_MISSING_MANDATORY_PARAM` (the answer to a missing version is not shown).',
    operations: FIND_MEMBER,
    reply: (reply, { received }) =>
      received.headers['svc-api-version'] === undefined && reply.status === 400
        ? findMemberError(422, 'MSG_PARAM_INVALID', 'SVC-API-Version must name version 1 or 2')
        : reply,
  },
  {
    name: 'find-member-empty-field-param-invalid',
    kind: 'error-code',
    allowedBy: ['DEC-D1-17', 'D1 7 (Find Member error table)'],
    description:
      'Find Member answers a required field sent empty with 422 `MSG_PARAM_INVALID` ("Parameter content invalid") instead of treating it as missing (400 `MSG_MISSING_MANDATORY_PARAM`).',
    operations: FIND_MEMBER,
    reply: (reply, { request }) => {
      const empty = [...(request.form?.entries() ?? [])].some(([, v]) => v.trim() === '');
      return empty && reply.status === 400 && errorCodeOf(reply.body) === 'MSG_MISSING_MANDATORY_PARAM'
        ? findMemberError(422, 'MSG_PARAM_INVALID', 'A field is empty')
        : reply;
    },
  },
  {
    name: 'batch-live-status-absent',
    kind: 'null-optional',
    allowedBy: ['DEC-D1-35'],
    description:
      'A LIVE remittance batch carries no `status` member ("missing or null means `LIVE`"); TEST batches keep theirs.',
    operations: BATCH_OPERATIONS,
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) => {
              if (!('msgId' in o) || o.status !== 'LIVE') return o;
              const { status: _live, ...rest } = o;
              return rest;
            }),
          },
  },
  {
    name: 'remittance-references-not-contained',
    kind: 'shape',
    allowedBy: ['DEC-D1-52'],
    description:
      'A remittance summary writes `requestor` and `paymentIssuer` as `Organization/<id>` references instead of `#<contained id>` (whether they point at the contained Organizations is not said).',
    operations: [REMITTANCE_SUMMARY],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o, path) =>
              ['requestor', 'paymentIssuer'].includes(path.at(-1) ?? '') &&
              typeof o.reference === 'string' &&
              o.reference.startsWith('#')
                ? { ...o, reference: `Organization/${o.reference.slice(1)}` }
                : o,
            ),
          },
  },
  {
    name: 'qualification-start-register-date-form',
    kind: 'date-form',
    allowedBy: ['DEC-D2-45'],
    description:
      "A register practitioner's `qualification[].period.start` is written `DD.MM.YYYY`, the form 2.3 gives `registrationdate` and `birthDate`, instead of `YYYY-MM-DD` (its form is not shown).",
    operations: [REGISTER_PRACTITIONERS, REGISTER_ROLES],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapResources(reply.body, 'Practitioner', (p) => ({
              ...p,
              ...(Array.isArray(p.qualification)
                ? {
                    qualification: p.qualification.map((q) => {
                      if (!isObject(q) || !isObject(q.period) || typeof q.period.start !== 'string') return q;
                      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(q.period.start);
                      return m ? { ...q, period: { ...q.period, start: `${m[3]}.${m[2]}.${m[1]}` } } : q;
                    }),
                  }
                : {}),
            })),
          },
  },
  {
    name: 'insurer-live-other-values',
    kind: 'data',
    allowedBy: ['DEC-D2-28'],
    description:
      'The insurer `live` extension reads `Yes` / `No` instead of `Y` / `N` (the meaning of its values is not shown).',
    operations: [LIST_INSURERS],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o) =>
              typeof o.url === 'string' && o.url.endsWith('/live') && typeof o.valueString === 'string'
                ? { ...o, valueString: o.valueString === 'Y' ? 'Yes' : o.valueString === 'N' ? 'No' : o.valueString }
                : o,
            ),
          },
  },
  {
    name: 'd2-error-body-plain',
    kind: 'error-body',
    allowedBy: ['DEC-D2-24'],
    description:
      'Document 2 operations answer errors with a plain object `{"code": ..., "message": ...}` instead of an OperationOutcome ("The shape of the error body: not shown.").',
    operations: DOCUMENT_2,
    reply: plainError,
  },
  {
    name: 'patient-error-body-plain',
    kind: 'error-body',
    allowedBy: ['DEC-D3-55'],
    description:
      'The patient and condition operations answer errors with a plain object `{"code": ..., "message": ...}` instead of an OperationOutcome (the body of patient errors is not shown).',
    operations: PATIENT_OPERATIONS,
    reply: plainError,
  },
  {
    name: 'copayment-type-absent',
    kind: 'null-optional',
    allowedBy: ['DEC-D1-61'],
    description:
      'The Coverage carries `memberCoPayment` without `memberCoPaymentType` (both are 0-1, and no sentence ties the one to the other).',
    operations: FIND_MEMBER,
    reply: onCoverage((c) => editExtensions(c, ['memberCoPaymentType'], () => undefined)),
  },
  {
    name: 'valueset-name-descriptive',
    kind: 'data',
    allowedBy: ['DEC-D2-39'],
    description:
      "A code set's ValueSet `name` is a title (`Condition Code codes`) rather than the requested set name (their relation is not stated).",
    operations: ['get-code-set'],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && typeof reply.body.name === 'string'
        ? {
            ...reply,
            body: {
              ...reply.body,
              name: `${reply.body.name
                .split('-')
                .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
                .join(' ')} codes`,
            },
          }
        : reply,
  },
  {
    name: 'booking-role-search-mode-match',
    kind: 'shape',
    allowedBy: ['DEC-D2-35'],
    description:
      'The booking role search gives each entry `search.mode` = `match`, as 2.1 asks "on role search" (the sandbox leaves it out there).',
    operations: ['search-booking-practitioner-roles'],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && Array.isArray(reply.body.entry)
        ? {
            ...reply,
            body: {
              ...reply.body,
              entry: reply.body.entry.map((e) =>
                isObject(e) && !('search' in e) ? { ...e, search: { mode: 'match' } } : e,
              ),
            },
          }
        : reply,
  },
  {
    name: 'site-type-names-upper-case',
    kind: 'letter-case',
    allowedBy: ['DEC-D3-21'],
    description:
      "A subscription plan's `siteTypes[].name` is written in capitals (`PRACTICE`) rather than as 2.1 names the code (whether the names follow 2.1 is not stated).",
    operations: ['list-site-subscriptions'],
    reply: (reply) =>
      reply.status !== 200
        ? reply
        : {
            ...reply,
            body: mapObjects(reply.body, (o, path) =>
              path.at(-1) === 'siteTypes' && typeof o.code === 'string' && typeof o.name === 'string'
                ? { ...o, name: o.name.toUpperCase() }
                : o,
            ),
          },
  },
  {
    name: 'diary-ids-as-text',
    kind: 'serialisation',
    allowedBy: ['DEC-D3-29'],
    description:
      'The diary list items carry their `id` as text (`"1"`) instead of a number (the item member types are not given).',
    operations: ['list-episode-types', 'list-appointment-statuses', 'list-recurrence-types'],
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && Array.isArray(reply.body.data)
        ? {
            ...reply,
            body: {
              ...reply.body,
              data: reply.body.data.map((d) =>
                isObject(d) && typeof d.id === 'number' ? { ...d, id: String(d.id) } : d,
              ),
            },
          }
        : reply,
  },
];
