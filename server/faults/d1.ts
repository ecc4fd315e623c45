/**
 * Faults of Document 1's operations (Find Member, authorisation and remittance search, batch
 * clearing, hospital claims, bills). Each is a modifier around the reference handlers
 * (server/router/types.ts `Modifier`); catalog.ts describes them.
 */
import { FIND_MEMBER_V1_INSURERS } from '../../spec/operations.ts';
import {
  arr,
  errorCodeOf,
  isObject,
  mapResources,
  withParameter,
  withoutParameters,
  type JsonObject,
} from '../modifiers/json.ts';
import { REF_URL, refExtension } from '../resources/urls.ts';
import { FILTERS as AUTHORISATION_FILTERS } from '../router/authorisation.ts';
import { operationOutcome } from '../router/errors.ts';
import { STEP_TWO_FIELDS } from '../router/findMember.ts';
import type { Modifier, SandboxReply, SandboxRequest } from '../router/types.ts';

const isVersion2 = (req: SandboxRequest) => (req.headers['svc-api-version'] ?? '').trim() === '2';
const withBody = (reply: SandboxReply, body: unknown): SandboxReply => ({ ...reply, body });
const diagnosticsOf = (body: unknown): string => {
  const issue = isObject(body) ? arr(body.issue)[0] : undefined;
  return isObject(issue) && typeof issue.diagnostics === 'string' ? issue.diagnostics : '';
};
const mapExtensions = (r: JsonObject, url: (u: string) => string): JsonObject =>
  Array.isArray(r.extension)
    ? {
        ...r,
        extension: r.extension.map((e) => (isObject(e) && typeof e.url === 'string' ? { ...e, url: url(e.url) } : e)),
      }
    : r;

/** The 1-1 extensions `processedDate` and `totalInvoiced` repeated with conflicting values. */
function duplicateOneToOne(resource: JsonObject): JsonObject {
  const extension = arr(resource.extension).filter(isObject);
  const again = extension.flatMap((e): JsonObject[] => {
    const url = String(e.url);
    if (url.endsWith('/processedDate')) return [{ url, valueDate: '1999-12-31' }];
    if (url.endsWith('/totalInvoiced'))
      return [{ url, valueMoney: { value: Number((e.valueMoney as { value: number }).value) + 1, currency: 'GBP' } }];
    return [];
  });
  return { ...resource, extension: [...extension, ...again] };
}

export const D1_FAULTS = {
  'no-match-status-200': {
    reply: (reply) =>
      reply.status === 400 && errorCodeOf(reply.body) === 'NO_MATCH_FOUND' ? { ...reply, status: 200 } : reply,
  },
  'multiple-match-wrong-code': {
    reply: (reply, { request }) =>
      isVersion2(request) && errorCodeOf(reply.body) === 'MULTIPLE_MATCH_FOUND'
        ? withBody(reply, operationOutcome('NO_MATCH_FOUND', diagnosticsOf(reply.body), ['Coverage']))
        : reply,
  },
  // Every issue of a Find Member error names another location than (`Coverage`).
  'outcome-location-not-coverage': {
    reply: (reply) =>
      reply.status >= 400 && isObject(reply.body) && reply.body.resourceType === 'OperationOutcome'
        ? withBody(reply, {
            ...reply.body,
            issue: arr(reply.body.issue).map((i) => (isObject(i) ? { ...i, location: ['Patient'] } : i)),
          })
        : reply,
  },
  'error-body-not-outcome': {
    reply: (reply) => {
      const code = reply.status >= 400 ? errorCodeOf(reply.body) : undefined;
      return code === undefined ? reply : withBody(reply, { error: code });
    },
  },
  // Any version other than 1 is served as version 2.
  'version-header-ignored': {
    request: (req) =>
      (req.headers['svc-api-version'] ?? '').trim() === '1'
        ? req
        : { ...req, headers: { ...req.headers, 'svc-api-version': '2' } },
  },
  'v2-accepts-v1-insurer': {
    served: (op) =>
      op.id !== 'find-member-v2'
        ? op
        : {
            ...op,
            parameters: op.parameters.map((p) =>
              p.name === 'insurerIdentifier' ? { ...p, values: [...(p.values ?? []), ...FIND_MEMBER_V1_INSURERS] } : p,
            ),
          },
  },
  // Version 1 no longer serves the listed insurer `tih`: it refuses it as an unknown value.
  'documented-value-refused': {
    served: (op) =>
      op.id !== 'find-member-v1'
        ? op
        : {
            ...op,
            parameters: op.parameters.map((p) =>
              p.name === 'insurerIdentifier' ? { ...p, values: (p.values ?? []).filter((v) => v !== 'tih') } : p,
            ),
          },
  },
  'optional-fields-ignored': {
    request: (req) => (isVersion2(req) ? withoutParameters(req, STEP_TWO_FIELDS) : req),
  },
  'coverage-missing-policy-expired': {
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'Coverage', (r) => ({
          ...r,
          extension: arr(r.extension).filter((e) => !(isObject(e) && String(e.url).endsWith('/policyExpired'))),
        })),
      ),
  },
  'coverage-extension-urls-moved': {
    reply: (reply) => {
      let body = mapResources(reply.body, 'Coverage', (r) =>
        mapExtensions(r, (u) => (u === `${REF_URL}/insuranceSchemePlan` ? refExtension('insuranceSchemePlan') : u)),
      );
      body = mapResources(body, 'Patient', (r) =>
        mapExtensions(r, (u) => u.replace(`${REF_URL}/extension/`, `${REF_URL}/Patient/extension/`)),
      );
      return withBody(reply, body);
    },
  },
  'organization-telecom-repeated': {
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'Organization', (r) => {
          const telecom = arr(r.telecom).filter(isObject);
          if (telecom.length === 0) return r;
          return { ...r, telecom: [...telecom, ...telecom.map((t) => ({ system: t.system, value: `2-${t.value}` }))] };
        }),
      ),
  },
  'authorisation-filters-ignored': {
    request: (req) => withoutParameters(req, Object.keys(AUTHORISATION_FILTERS)),
  },
  'insurer-filter-ignored': { request: (req) => withoutParameters(req, ['insurerIdentifier']) },
  'since-ignored': { request: (req) => withoutParameters(req, ['_since']) },
  'sort-descending-ignored': {
    request: (req) => withParameter(req, '_sort', (v) => (v.trim() === '-createdOn' ? 'createdOn' : v)),
  },
  'detail-sort-ignored': {
    request: (req) => withParameter(req, '_sort', (v) => (v.trim() === '-createdOn' ? undefined : v)),
  },
  'summary-extension-duplicated': {
    reply: (reply) => withBody(reply, mapResources(reply.body, 'PaymentReconciliation', duplicateOneToOne)),
  },
  // The pending list and get serve every site's batches.
  'batch-other-site-listed': {
    repo: (repo) => ({
      ...repo,
      pendingBatches: () => repo.pendingBatches(undefined),
      pendingBatch: (_siteId, id) => repo.pendingBatch(undefined, id),
    }),
  },
  'invalid-id-200': {
    reply: (reply) =>
      reply.status === 404 && isObject(reply.body) && reply.body.code === 'InvalidId'
        ? { status: 200, body: {} }
        : reply,
  },
  'batch-msgid-repeated': {
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && 'msgId' in reply.body
        ? withBody(reply, { ...reply.body, msgId: '1' })
        : reply,
  },
  // The acknowledgement answers 200 but keeps the batch pending.
  'ack-keeps-batch': { repo: (repo) => ({ ...repo, removeBatch: async () => true }) },
  'ack-returns-204': { reply: (reply) => (reply.status === 200 ? { ...reply, status: 204 } : reply) },
  'hospital-date-filter-ignored': { request: (req) => withoutParameters(req, ['dateCompleted']) },
  'bill-bundle-collection': {
    reply: (reply) =>
      isObject(reply.body) && reply.body.resourceType === 'Bundle'
        ? withBody(reply, { ...reply.body, type: 'collection' })
        : reply,
  },
  'bill-extension-urls-moved': {
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'Claim', (r) =>
          mapExtensions(r, (u) => u.replace('/extension/Claim/', '/extension/')),
        ),
      ),
  },
  // Get bill answers the first bill whatever the id.
  'get-bill-ignores-id': {
    request: async (req, { repo }) => {
      const [first] = await repo.bills();
      if (!first) return req;
      return withParameter({ ...req, params: { ...req.params, claimId: first.id } }, 'isArchived', () =>
        String(first.archived),
      );
    },
  },
} satisfies Record<string, Modifier>;
