/**
 * Patient and condition operations (Document 3, 2.4, 2.5, 3, 4.4, 5, 7; DEC-D3-07..09). Patients
 * and conditions belong to the site named by SU-SiteId. Every request needs a bearer token,
 * SU-SiteId and `SVC-API-Version: 1`; a missing one is 401 MSG_UNAUTHORIZED (an OperationOutcome),
 * another version value 422 MSG_PARAM_INVALID, a site the token may not use 403 MSG_FORBIDDEN
 * (a user token reaches its connected sites and their children, a client token its own site).
 * Create echoes the Patient with a new id, `active` true, `deceasedBoolean` (false unless sent)
 * and ids on telecom and address entries (HTTP 201); update (PUT `{base_url}/{id}`) replaces the
 * stored patient, refused 422 INVALID_RESOURCE for an inactive one; delete answers Parameters
 * `Status` = `DELETED`, after which the patient is 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE. A
 * condition names its patient in `note[].authorReference` (`patient/<id>`): an unknown patient is
 * 422 MSG_REFERENCE_ID_NOT_FOUND.
 */
import type { StoredResource } from '../repo/model.ts';
import { reachableSites } from './accounts.ts';
import { REQUEST_BODY_SCHEMAS } from '../../spec/requestBodies.ts';
import { ApiError } from './errors.ts';
import { isObject, isText, objects, type JsonObject } from './json.ts';
import { isDate, readParameters, type ParameterProfile } from './params.ts';
import { requireShape, type ShapeRefusals } from './requestShape.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const GET_OP = 'get-patient';
const UPDATE_OP = 'update-patient';
const CREATE_OP = 'create-patient';
const CONDITION_OP = 'create-condition';
const DELETE_OP = 'delete-patient';
const DELETE_CONDITION_OP = 'delete-condition';

export const PATIENT_VERSION_HEADER = 'svc-api-version';
export const PATIENT_VERSION = '1';

/** Path parameters (the only query-free parameters of these operations). */
const PATIENT_PROFILE: ParameterProfile = {
  missing: { status: 400, code: 'MSG_MISSING_MANDATORY_PARAM' },
  empty: 'absent',
  invalidValue: { status: 400, code: 'MSG_INVALID_FORMAT' },
  badFormat: { status: 400, code: 'MSG_INVALID_FORMAT' },
};

const EXTENSION_NAMES = ['insurer', 'registrationid', 'authorizationno'];
const TELECOM_SYSTEMS = ['phone', 'email', 'sms'];

const unauthorised = (diagnostics: string) =>
  new ApiError(401, 'MSG_UNAUTHORIZED', diagnostics, { 'www-authenticate': 'Bearer' });

/** The mandatory headers (5, DEC-D3-07) and the site the request acts for. */
async function patientSite(req: SandboxRequest, ctx: SandboxContext): Promise<string> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (token === undefined) throw unauthorised('Expected header Authorization: Bearer <token>');
  const grant = await ctx.repo.accessGrant(token);
  if (!grant || grant.kind === 'diary') throw unauthorised('The access token is unknown, expired or revoked');
  const siteId = (req.headers['su-siteid'] ?? '').trim();
  if (siteId === '') {
    throw unauthorised('Header SU-SiteId is required');
  }
  const version = (req.headers[PATIENT_VERSION_HEADER] ?? '').trim();
  if (version === '') throw unauthorised('Header SVC-API-Version is required');
  if (version !== PATIENT_VERSION)
    throw new ApiError(422, 'MSG_PARAM_INVALID', `Expected SVC-API-Version ${PATIENT_VERSION}, received ${version}`);
  const user = grant.userId === undefined ? undefined : (await ctx.repo.users()).find((u) => u.id === grant.userId);
  const allowed = user
    ? reachableSites(user, await ctx.repo.sites()).some((s) => s.id === siteId)
    : (await ctx.repo.client(grant.clientId ?? ''))?.siteId === siteId;
  if (!allowed) throw new ApiError(403, 'MSG_FORBIDDEN', `The access token may not act for site ${siteId}`);
  return siteId;
}

/** A body of the wrong shape (DEC-D3-67): create and condition use their 400 codes, update its 422 ones (7). */
const CREATE_SHAPE: ShapeRefusals = {
  missing: [400, 'MSG_MISSING_MANDATORY_PARAM'],
  invalid: [400, 'MSG_INVALID_FORMAT'],
};
const UPDATE_SHAPE: ShapeRefusals = { missing: [422, 'MISSING_MANDATORY_ELEMENT'], invalid: [422, 'INVALID_RESOURCE'] };

function parseBody(req: SandboxRequest): unknown {
  try {
    return JSON.parse(req.rawBody);
  } catch {
    throw new ApiError(400, 'MSG_CANT_PARSE_CONTENT', 'The body is not JSON');
  }
}

/** The refusals of a Patient body: create uses its 400/422 codes, update the 422 codes of its table (7). */
interface PatientRefusals {
  resource: [number, string];
  format: [number, string];
  date: [number, string];
  extension: [number, string];
  value: [number, string];
}

const CREATE_REFUSALS: PatientRefusals = {
  resource: [400, 'INVALID_RESOURCE'],
  format: [400, 'MSG_INVALID_FORMAT'],
  date: [422, 'MSG_DATE_FORMAT'],
  extension: [422, 'MSG_PARAM_INVALID'],
  value: [422, 'MSG_PARAM_INVALID'],
};

const UPDATE_REFUSALS: PatientRefusals = {
  resource: [422, 'INVALID_RESOURCE'],
  format: [422, 'INVALID_RESOURCE'],
  date: [422, 'INVALID_RESOURCE'],
  extension: [422, 'INVALID_EXTENSION'],
  value: [422, 'INVALID_RESOURCE'],
};

function validatePatient(body: unknown, r: PatientRefusals): asserts body is JsonObject {
  const refuse = ([status, code]: [number, string], diagnostics: string): never => {
    throw new ApiError(status, code, diagnostics);
  };
  if (!isObject(body) || body.resourceType !== 'Patient')
    return refuse(
      r.resource,
      `Expected a Patient resource, received ${isObject(body) ? String(body.resourceType) : typeof body}`,
    );
  for (const name of ['extension', 'name', 'telecom', 'address']) {
    const list = body[name];
    if (list !== undefined && !(Array.isArray(list) && list.every(isObject)))
      refuse(r.format, `Patient.${name} must be an array of objects`);
  }
  for (const name of ['active', 'deceasedBoolean']) {
    if (body[name] !== undefined && typeof body[name] !== 'boolean')
      refuse(r.format, `Patient.${name} must be true or false`);
  }
  if (body.birthDate !== undefined && !(typeof body.birthDate === 'string' && isDate(body.birthDate)))
    refuse(r.date, `Patient.birthDate must be a date YYYY-MM-DD, received ${String(body.birthDate)}`);
  for (const e of objects(body.extension)) {
    const name = /\/extension\/patient\/([^/]+)$/.exec(String(e.url))?.[1];
    if (name === undefined || !EXTENSION_NAMES.includes(name))
      refuse(r.extension, `Unknown Patient extension ${String(e.url)}`);
    if (typeof e.valueString !== 'string')
      refuse(r.extension, `Patient extension ${String(e.url)} must carry valueString`);
  }
  for (const t of objects(body.telecom)) {
    if (!(typeof t.system === 'string' && TELECOM_SYSTEMS.includes(t.system)))
      refuse(r.value, `Patient.telecom.system must be phone, email or sms, received ${String(t.system)}`);
  }
}

/** Ids on telecom and address entries that have none. */
async function withEntryIds(ctx: SandboxContext, body: JsonObject): Promise<JsonObject> {
  const out = { ...body };
  if (Array.isArray(body.telecom))
    out.telecom = await Promise.all(
      objects(body.telecom).map(async (t) => ({ ...t, id: isText(t.id) ? t.id : await ctx.repo.newId('telecom') })),
    );
  if (Array.isArray(body.address))
    out.address = await Promise.all(
      objects(body.address).map(async (a) => ({ ...a, id: isText(a.id) ? a.id : await ctx.repo.newId('address') })),
    );
  return out;
}

/** `deceasedBoolean` as sent (validated a Boolean), false when absent. */
const deceasedOf = (body: JsonObject): boolean => body.deceasedBoolean === true;

const deletedParameters = () => ({
  resourceType: 'Parameters',
  parameter: [{ name: 'Status', valueString: 'DELETED' }],
});

const notFound = (what: string, id: string) =>
  new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', `No ${what} ${id} at this site`);

export async function createPatient(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const siteId = await patientSite(req, ctx);
  const body = parseBody(req);
  validatePatient(body, CREATE_REFUSALS);
  requireShape(REQUEST_BODY_SCHEMAS[CREATE_OP], body, CREATE_SHAPE);
  const id = await ctx.repo.newId('patient');
  const resource = {
    ...(await withEntryIds(ctx, body)),
    resourceType: 'Patient',
    id,
    active: true,
    deceasedBoolean: deceasedOf(body),
  };
  await ctx.repo.savePatient({ siteId, resource });
  return { status: 201, body: resource };
}

/** The patient of the path, or 404; a patient is gone once deleted. */
async function storedPatient(req: SandboxRequest, ctx: SandboxContext, operationId: string) {
  const siteId = await patientSite(req, ctx);
  const { patient_id: id } = readParameters(ctx, {
    operationId,
    profile: PATIENT_PROFILE,
    source: req.query,
    path: req.params,
  });
  return { siteId, id, record: await ctx.repo.patient(siteId, id) };
}

export async function getPatient(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const { id, record } = await storedPatient(req, ctx, GET_OP);
  if (!record) throw notFound('patient', id);
  return ok(record.resource);
}

export async function updatePatient(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const siteId = await patientSite(req, ctx);
  const { patient_id: id } = readParameters(ctx, {
    operationId: UPDATE_OP,
    profile: PATIENT_PROFILE,
    source: req.query,
    path: req.params,
  });
  const body = parseBody(req);
  validatePatient(body, UPDATE_REFUSALS);
  if (!isText(body.id)) throw new ApiError(422, 'MISSING_MANDATORY_ELEMENT', 'Patient.id is required on update');
  if (body.id !== id)
    throw new ApiError(422, 'INVALID_RESOURCE', `Patient.id ${body.id} differs from the path id ${id}`);
  requireShape(REQUEST_BODY_SCHEMAS[UPDATE_OP], body, UPDATE_SHAPE);
  const record = await ctx.repo.patient(siteId, id);
  if (!record) throw new ApiError(422, 'REFERENCE_NOT_FOUND', `No patient ${id} at this site`);
  if (!record.resource.active)
    throw new ApiError(422, 'INVALID_RESOURCE', `Patient ${id} is inactive and cannot be updated`);
  const resource = {
    ...(await withEntryIds(ctx, body)),
    resourceType: 'Patient',
    id,
    active: body.active !== false,
    deceasedBoolean: deceasedOf(body),
  };
  await ctx.repo.savePatient({ siteId, resource });
  return ok(resource);
}

export async function deletePatient(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const { siteId, id, record } = await storedPatient(req, ctx, DELETE_OP);
  if (!record) throw notFound('patient', id);
  // The removal decides, not the read before it: of two deletes at once, one wins.
  if (!(await ctx.repo.removePatient(siteId, id))) throw notFound('patient', id);
  return ok(deletedParameters());
}

/** A valid Condition body and the patient ids its notes name. */
function validateCondition(body: unknown): { condition: JsonObject; patientIds: string[] } {
  const missing = (diagnostics: string): never => {
    throw new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', diagnostics);
  };
  if (!isObject(body) || body.resourceType !== 'Condition')
    throw new ApiError(400, 'INVALID_RESOURCE', 'Expected a Condition resource');
  const note = body.note;
  if (!Array.isArray(note) || note.length === 0) return missing('Condition.note is required');
  const patientIds = note.map((n: unknown, k: number) => {
    if (!isObject(n) || !isText(n.text)) return missing(`Condition.note[${k}].text is required`);
    const reference = isObject(n.authorReference) ? n.authorReference.reference : undefined;
    if (!isText(reference)) return missing(`Condition.note[${k}].authorReference is required`);
    const id = /^patient\/([^/]+)$/i.exec(reference.trim())?.[1];
    if (id === undefined)
      throw new ApiError(
        400,
        'MSG_INVALID_FORMAT',
        `Condition.note[${k}].authorReference must be patient/<patient_id>, received ${reference}`,
      );
    return id;
  });
  const evidence = body.evidence;
  if (evidence !== undefined) {
    if (!Array.isArray(evidence)) throw new ApiError(400, 'MSG_INVALID_FORMAT', 'Condition.evidence must be an array');
    for (const [k, e] of evidence.entries()) {
      if (!isObject(e) || !Array.isArray(e.detail) || e.detail.length === 0)
        return missing(`Condition.evidence[${k}].detail is required`);
      for (const [j, d] of e.detail.entries()) {
        const at = `Condition.evidence[${k}].detail[${j}]`;
        if (!isObject(d) || !isText(d.display)) return missing(`${at}.display is required`);
        const identifier = d.identifier;
        if (!isObject(identifier)) return missing(`${at}.identifier is required`);
        for (const member of ['id', 'system', 'value'])
          if (!isText(identifier[member])) missing(`${at}.identifier.${member} is required`);
      }
    }
  }
  return { condition: body, patientIds: [...new Set<string>(patientIds)] };
}

/** The evidence of a valid Condition with each detail referencing its DocumentReference. */
const referencedEvidence = (condition: JsonObject) =>
  objects(condition.evidence).map((e) => ({
    ...e,
    detail: objects(e.detail).map((d) => ({
      ...d,
      reference: `DocumentReference/${String(isObject(d.identifier) ? d.identifier.id : '')}`,
    })),
  }));

export async function createCondition(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const siteId = await patientSite(req, ctx);
  const { condition, patientIds } = validateCondition(parseBody(req));
  requireShape(REQUEST_BODY_SCHEMAS[CONDITION_OP], condition, CREATE_SHAPE);
  for (const patientId of patientIds) {
    const patient = await ctx.repo.patient(siteId, patientId);
    if (!patient) {
      throw new ApiError(422, 'MSG_REFERENCE_ID_NOT_FOUND', `No patient ${patientId} at this site`);
    }
  }
  const id = await ctx.repo.newId('condition');
  const evidence = Array.isArray(condition.evidence) ? referencedEvidence(condition) : undefined;
  const resource: StoredResource = {
    ...condition,
    resourceType: 'Condition',
    id,
    ...(evidence === undefined ? {} : { evidence }),
  };
  await ctx.repo.saveCondition({ siteId, patientId: patientIds[0], resource });
  return { status: 201, body: resource };
}

export async function deleteCondition(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const siteId = await patientSite(req, ctx);
  const { condition_id: id } = readParameters(ctx, {
    operationId: DELETE_CONDITION_OP,
    profile: PATIENT_PROFILE,
    source: req.query,
    path: req.params,
  });
  if (!(await ctx.repo.removeCondition(siteId, id))) throw notFound('condition', id);
  return ok(deletedParameters());
}
