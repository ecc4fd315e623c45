/**
 * Faults of Document 3's operations (accounts, sign-on and tokens, diary, patient records,
 * contract pricing). Each is a modifier around the reference handlers (server/router/types.ts
 * `Modifier`); catalog.ts describes them.
 */
import type { PatientRecord, RefreshGrant } from '../repo/model.ts';
import type { Repository } from '../repo/repository.ts';
import { arr, isObject, mapObjects, mapResources, withParameter, type JsonObject } from '../modifiers/json.ts';
import { REF_URL } from '../resources/urls.ts';
import { PROCEDURE_SYSTEM, SERVICE_SYSTEM } from '../resources/contract.ts';
import { RESERVED_PAYORS } from '../router/contracts.ts';
import { ApiError, errorReply } from '../router/errors.ts';
import type { Modifier, SandboxReply, SandboxRequest } from '../router/types.ts';

const withBody = (reply: SandboxReply, body: unknown): SandboxReply => ({ ...reply, body });
const isError = (reply: SandboxReply) => reply.status >= 400;
const diagnosticsOf = (body: unknown): string => {
  const issue = isObject(body) ? arr(body.issue)[0] : undefined;
  return isObject(issue) && typeof issue.diagnostics === 'string' ? issue.diagnostics : '';
};
const systemsOf = (item: unknown): string[] =>
  isObject(item) && isObject(item.entityCodeableConcept)
    ? arr(item.entityCodeableConcept.coding).flatMap((c) => (isObject(c) ? [String(c.system ?? '')] : []))
    : [];
const isService = (item: unknown) => systemsOf(item).some((s) => s.toUpperCase() === SERVICE_SYSTEM);
const isProcedure = (item: unknown) => systemsOf(item).some((s) => s === PROCEDURE_SYSTEM || s.endsWith('/procedure'));
/** The valued items of every asset of a Contract, rewritten. */
const mapValuedItems = (contract: JsonObject, edit: (items: unknown[]) => unknown[]): JsonObject => ({
  ...contract,
  term: arr(contract.term).map((t) =>
    isObject(t)
      ? { ...t, asset: arr(t.asset).map((a) => (isObject(a) ? { ...a, valuedItem: edit(arr(a.valuedItem)) } : a)) }
      : t,
  ),
});

/** Marks a contract request the procedure-without-service-accepted fault completed with a placeholder service. */
const PLACEHOLDER_SERVICE = 'FAULT-PLACEHOLDER-SERVICE';
const placeholderAdded = (req: SandboxRequest) => req.rawBody.includes(PLACEHOLDER_SERVICE);

/** The patients deleted per sandbox (its unwrapped repository), for condition-for-deleted-patient-stored. */
const deletedPatients = new WeakMap<Repository, Map<string, PatientRecord>>();
const deletedOf = (data: Repository) => {
  const map = deletedPatients.get(data) ?? new Map<string, PatientRecord>();
  deletedPatients.set(data, map);
  return map;
};

/** The last patient id deleted per sandbox (its unwrapped repository), for patient-id-reused-after-delete. */
const freedPatientIds = new WeakMap<Repository, string>();

export const D3_FAULTS = {
  // Introspection with SU-SiteId skips the site check.
  'introspect-skips-site-check': {
    request: (req) => {
      const { 'su-siteid': _site, ...headers } = req.headers;
      return { ...req, headers };
    },
  },
  'sites-v2-next-page-at-end': {
    reply: (reply) => {
      const body = reply.body;
      if (!isObject(body) || !isObject(body.pagination) || body.pagination.nextPage !== null) return reply;
      const current = Number(body.pagination.currentPage);
      return withBody(reply, { ...body, pagination: { ...body.pagination, nextPage: current + 1 } });
    },
  },
  // An unknown site id is answered 404 instead of 200 with a message (4.1).
  'site-users-invalid-404': {
    reply: (reply) =>
      reply.status === 200 && isObject(reply.body) && typeof reply.body.message === 'string'
        ? { ...reply, status: 404, body: { message: reply.body.message, code: 404 } }
        : reply,
  },
  'accounts-error-code-as-text': {
    reply: (reply) =>
      isError(reply) && isObject(reply.body) && typeof reply.body.code === 'number'
        ? withBody(reply, { ...reply.body, code: String(reply.body.code) })
        : reply,
  },
  'token-details-error-shape': {
    reply: (reply) => {
      if (!isError(reply) || !isObject(reply.body) || reply.body.status !== 'fail') return reply;
      const { status: _status, ...body } = reply.body;
      return withBody(reply, body);
    },
  },
  'revoke-keeps-access-token': { repo: (repo) => ({ ...repo, revokeAccessToken: async () => true }) },
  'refresh-revoke-keeps-access': { repo: (repo) => ({ ...repo, revokeSession: async () => {} }) },
  // The revoked refresh token's session ends, but the refresh token stays live.
  'refresh-revoke-keeps-refresh': {
    repo: (repo) => {
      let revoked: RefreshGrant | undefined;
      return {
        ...repo,
        revokeRefreshToken: async (token) => {
          revoked = await repo.refreshGrant(token);
          return repo.revokeRefreshToken(token);
        },
        revokeSession: async (sessionId) => {
          await repo.revokeSession(sessionId);
          if (revoked) await repo.restoreRefreshGrant(revoked);
        },
      };
    },
  },
  'diary-unauthorized-body': {
    reply: (reply) =>
      reply.status === 401 && reply.body === undefined
        ? withBody(reply, { message: 'Unauthorized', code: 401 })
        : reply,
  },
  'diary-unmapped-as-unauthorized': {
    reply: (reply) =>
      isObject(reply.body) && reply.body.response === 3 ? withBody(reply, { ...reply.body, response: 1 }) : reply,
  },
  // The update answers the new resource but does not store it.
  'patient-update-ignored': { repo: (repo) => ({ ...repo, savePatient: async () => {} }) },
  // The delete answers success but the patient stays readable.
  'patient-deleted-still-readable': { repo: (repo) => ({ ...repo, removePatient: async () => true }) },
  // The next created patient gets the id of the most recently deleted one (ids are recycled).
  // A body of the wrong shape is answered as if created (nothing is stored).
  'patient-body-shape-unchecked': {
    reply: (reply, { received }) => {
      if (!isError(reply) || !diagnosticsOf(reply.body).startsWith('The body is not of the documented shape'))
        return reply;
      let sent: unknown;
      try {
        sent = JSON.parse(received.rawBody);
      } catch {
        return reply;
      }
      return {
        ...reply,
        status: 201,
        body: { ...(isObject(sent) ? sent : {}), resourceType: 'Patient', id: 'PAT-UNCHECKED' },
      };
    },
  },
  'patient-id-reused-after-delete': {
    repo: (repo, { repo: data }) => ({
      ...repo,
      removePatient: async (siteId, id) => {
        const removed = await repo.removePatient(siteId, id);
        if (removed) freedPatientIds.set(data, id);
        return removed;
      },
      newId: async (kind) => {
        const freed = kind === 'patient' ? freedPatientIds.get(data) : undefined;
        if (freed === undefined) return repo.newId(kind);
        freedPatientIds.delete(data);
        return freed;
      },
    }),
  },
  // A deleted patient still takes conditions (D3 4.4: "the patient must already exist").
  'condition-for-deleted-patient-stored': {
    repo: (repo, { repo: data }) => ({
      ...repo,
      removePatient: async (siteId, id) => {
        const before = await repo.patient(siteId, id);
        const removed = await repo.removePatient(siteId, id);
        if (removed && before) deletedOf(data).set(`${siteId}|${id}`, before);
        return removed;
      },
      patient: async (siteId, id) => (await repo.patient(siteId, id)) ?? deletedOf(data).get(`${siteId}|${id}`),
    }),
  },
  'patient-missing-header-400': {
    reply: (reply, { operations }) =>
      reply.status === 401 && diagnosticsOf(reply.body) === 'Header SU-SiteId is required'
        ? errorReply(new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', 'Header SU-SiteId is required'), operations)
        : reply,
  },
  // A condition naming an unknown patient is stored.
  'condition-orphan-accepted': {
    repo: (repo) => ({
      ...repo,
      patient: async (siteId, id) =>
        (await repo.patient(siteId, id)) ?? { siteId, resource: { resourceType: 'Patient', id, active: true } },
    }),
  },
  // Every listing of a site's payors adds the reserved payors again (it does not see those it holds).
  'payors-duplicated': {
    repo: (repo) => {
      let first = true;
      return {
        ...repo,
        payors: async (siteId) => {
          const all = await repo.payors(siteId);
          if (!first) return all;
          first = false;
          return all.filter((p) => !(p.type === 'I' && RESERVED_PAYORS.some((r) => r.payorId === p.payorId)));
        },
      };
    },
  },
  // A procedure without its service code is accepted (answered, not stored): the sandbox completes
  // the request with a placeholder service, stores nothing and answers without the placeholder.
  'procedure-without-service-accepted': {
    request: (req) => {
      let body: unknown;
      try {
        body = JSON.parse(req.rawBody);
      } catch {
        return req;
      }
      const assets = isObject(body) ? arr(body.term).flatMap((t) => (isObject(t) ? arr(t.asset) : [])) : [];
      const items = assets.flatMap((a) => (isObject(a) ? arr(a.valuedItem) : []));
      const priced = items.some((i) => isObject(i) && i.net !== undefined);
      const orphaned = assets.some(
        (a) => isObject(a) && arr(a.valuedItem).some(isProcedure) && !arr(a.valuedItem).some(isService),
      );
      if (priced || !orphaned) return req;
      const placeholder = {
        entityCodeableConcept: {
          coding: [{ system: SERVICE_SYSTEM, code: PLACEHOLDER_SERVICE, display: PLACEHOLDER_SERVICE }],
        },
      };
      const completed = mapValuedItems(body as JsonObject, (valued) =>
        valued.some(isProcedure) && !valued.some(isService) ? [placeholder, ...valued] : valued,
      );
      return { ...req, rawBody: JSON.stringify(completed) };
    },
    repo: (repo, { request }) => (placeholderAdded(request) ? { ...repo, savePriceContract: async () => {} } : repo),
    reply: (reply, { request }) =>
      placeholderAdded(request)
        ? withBody(
            reply,
            mapResources(reply.body, 'Contract', (c) =>
              mapValuedItems(c, (valued) => valued.filter((i) => !JSON.stringify(i).includes(PLACEHOLDER_SERVICE))),
            ),
          )
        : reply,
  },
  'delete-outcome-severity-error': {
    reply: (reply) =>
      reply.status === 200
        ? withBody(
            reply,
            mapResources(reply.body, 'OperationOutcome', (o) => ({
              ...o,
              issue: arr(o.issue).map((i) =>
                isObject(i) && i.severity === 'information' ? { ...i, severity: 'error' } : i,
              ),
            })),
          )
        : reply,
  },
  // Contracts holding procedures lose every service entry.
  'effective-prices-orphan-procedure': {
    reply: (reply) =>
      withBody(
        reply,
        mapResources(reply.body, 'Contract', (c) => {
          const items = arr(c.term)
            .flatMap((t) => (isObject(t) ? arr(t.asset) : []))
            .flatMap((a) => (isObject(a) ? arr(a.valuedItem) : []));
          return items.some(isProcedure) ? mapValuedItems(c, (valued) => valued.filter((i) => !isService(i))) : c;
        }),
      ),
  },
  'contract-item-system-other': {
    reply: (reply) =>
      withBody(
        reply,
        mapResources(
          reply.body,
          'Contract',
          (c) =>
            mapObjects(c, (o) =>
              o.system === SERVICE_SYSTEM ? { ...o, system: `${REF_URL}/service` } : o,
            ) as JsonObject,
        ),
      ),
  },
  'effective-prices-first-payor-only': {
    request: (req) =>
      withParameter(
        req,
        'payor',
        (v) =>
          v
            .split(',')
            .map((p) => p.trim())
            .find((p) => p !== '') ?? v,
      ),
  },
} satisfies Record<string, Modifier>;
