/**
 * Contract-pricing operations (Document 3, 2.6, 4.5; DEC-D3-12..16). Bearer token as every
 * Document 1 and 2 operation (DEC-D3-16); answers are `application/fhir+json`. Data is per site.
 * - Value sets of contract types (PRICING) and sub types (FEE_SCHEDULE,
 *   PRACTITIONER_BESPOKE_CONTRACT, SELF_PAY), paged like the code sets.
 * - Payors: listing a site's payors first creates `slf` and `na` when the site lacks them; the
 *   upsert (POST /contract) serves payors (`Organization/<payor>`) and contacts (`Person/<contact>`)
 *   on one route, the delete (DELETE /contract/{site}) both by `payorType` I or C, accepting the
 *   example's `payerId` / `payerType` too (DEC-D3-14); deletes answer the MSG_DELETED_ID outcome.
 * - Prices: POST $contract-price serves set service, set service with procedure and set price on
 *   one route, told apart by the valued items (a fee: price; a procedure: with procedure). A
 *   procedure without its service code is 400 MSG_MISSING_MANDATORY_PARAM (DEC-D3-15). The
 *   service is stored under the price contract of the payor (and practitioner, location) that
 *   already holds it, else under that payor's fee schedule (bespoke contract with a practitioner,
 *   self-pay for `slf`), created when missing; the answer is that Contract. DELETE
 *   $contract-price/{site} removes the service (or only the procedure) from every contract of the
 *   site; nothing removed is 404 MSG_ENTITY_NOT_FOUND_IN_DATABASE.
 * - Effective prices: the site's price contracts for the payors (comma-separated), location
 *   (contracts of that location and site-wide ones), service code and `_since`, paged.
 * Malformed bodies are 400 MSG_CANT_PARSE_CONTENT; missing members 400 MSG_MISSING_MANDATORY_PARAM;
 * an unknown payor of the site 422 MSG_REFERENCE_ID_NOT_FOUND.
 */
import type { Payor, PayorType, PriceContract, PriceSubType, ServicePrice } from '../repo/model.ts';
import {
  contractSubTypeItems,
  contractTypeItems,
  deletedOutcome,
  payorContractOf,
  payorReference,
  priceContractOf,
  PROCEDURE_SYSTEM,
  SERVICE_SYSTEM,
} from '../resources/contract.ts';
import { contractsUrl } from '../resources/urls.ts';
import { valueSetOf } from '../resources/valueSet.ts';
import { authorise } from './auth.ts';
import { REQUEST_BODY_SCHEMAS } from '../../spec/requestBodies.ts';
import { ApiError } from './errors.ts';
import { arr, isObject, isText, type JsonObject } from './json.ts';
import { expansionPage, pagedBundle, pagingOf } from './paging.ts';
import { CLEARING_PROFILE, QUERY_PAGING, readParameters, since, type ParameterProfile } from './params.ts';
import { requireShape, type ShapeRefusals } from './requestShape.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const EFFECTIVE_PRICES_OP = 'get-effective-prices';
const TYPES_OP = 'list-contract-types';
const SUBTYPES_OP = 'list-contract-subtypes';
const PAYORS_OP = 'list-site-payors';
const UPSERT_PAYOR_OP = 'upsert-payor';
const DELETE_PAYOR_OP = 'delete-payor';
const DELETE_CONTACT_OP = 'delete-contact-payor';
const SET_SERVICE_OP = 'set-contract-service';
const DELETE_SERVICE_OP = 'delete-contract-service';
const DELETE_WITH_PROCEDURE_OP = 'delete-contract-service-with-procedure';

/** Contract operations have no error table of their own (7): the clearing codes are used. */
export const CONTRACT_PROFILE: ParameterProfile = CLEARING_PROFILE;

/** Reserved payor ids (2.6) created by the payor listing when missing (4.5). */
export const RESERVED_PAYORS: readonly { payorId: string; display: string }[] = [
  { payorId: 'slf', display: 'Self-Pay' },
  { payorId: 'na', display: 'All Others' },
];

/** A Contract body of the wrong shape (DEC-D3-67), with the clearing codes the contract operations use (7). */
const CONTRACT_SHAPE: ShapeRefusals = {
  missing: [400, 'MSG_MISSING_MANDATORY_PARAM'],
  invalid: [400, 'MSG_INVALID_FORMAT'],
};

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
const missing = (diagnostics: string) => new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', diagnostics);
const badFormat = (diagnostics: string) => new ApiError(400, 'MSG_INVALID_FORMAT', diagnostics);
/** A member of an object (undefined for anything else). */
const member = (v: unknown, name: string): unknown => (isObject(v) ? v[name] : undefined);

function parseContract(req: SandboxRequest): JsonObject {
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody);
  } catch {
    throw new ApiError(400, 'MSG_CANT_PARSE_CONTENT', 'The body is not JSON');
  }
  if (!isObject(body) || (body.resourceType !== undefined && body.resourceType !== 'Contract')) {
    throw new ApiError(400, 'INVALID_RESOURCE', 'Expected a Contract resource');
  }
  return body;
}

/** The id after `<prefix>/` in one of the references of a list (`subject`, `authority`). */
function referencedId(list: unknown, prefix: string): string | undefined {
  for (const r of arr(list)) {
    const reference = member(r, 'reference');
    const m = typeof reference === 'string' ? new RegExp(`^${prefix}/(.+)$`).exec(reference.trim()) : null;
    if (m) return m[1];
  }
  return undefined;
}

const siteOf = (body: JsonObject): string => {
  const site = referencedId(body.subject, 'Site');
  if (site === undefined) throw missing('Contract.subject with reference Site/<site_id> is required');
  return site;
};

async function valueSetReply(
  req: SandboxRequest,
  ctx: SandboxContext,
  operationId: string,
  id: string,
  items: Record<string, unknown>[],
): Promise<SandboxReply> {
  await authorise(req, ctx, operationId);
  const values = readParameters(ctx, {
    operationId,
    profile: CONTRACT_PROFILE,
    source: req.query,
    extraParameters: QUERY_PAGING,
  });
  const page = expansionPage(items, pagingOf(values));
  return ok(valueSetOf({ id, name: id, tag: page.tag, total: page.total, offset: page.offset, contains: page.items }));
}

export const listContractTypes = (req: SandboxRequest, ctx: SandboxContext) =>
  valueSetReply(req, ctx, TYPES_OP, 'contract-type', contractTypeItems(contractsUrl(ctx.baseUrl)));

export const listContractSubtypes = (req: SandboxRequest, ctx: SandboxContext) =>
  valueSetReply(req, ctx, SUBTYPES_OP, 'contract-subtype-PRICING', contractSubTypeItems(contractsUrl(ctx.baseUrl)));

export async function listSitePayors(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, PAYORS_OP);
  const values = readParameters(ctx, {
    operationId: PAYORS_OP,
    profile: CONTRACT_PROFILE,
    source: req.query,
    path: req.params,
    extraParameters: QUERY_PAGING,
  });
  const { siteId } = values;
  const existing = await ctx.repo.payors(siteId);
  for (const r of RESERVED_PAYORS) {
    if (!existing.some((p) => p.type === 'I' && p.payorId === r.payorId)) {
      await ctx.repo.savePayor({
        contractId: await ctx.repo.newId('payor'),
        siteId,
        type: 'I',
        payorId: r.payorId,
        display: r.display,
        lastUpdated: now(),
      });
    }
  }
  const url = contractsUrl(ctx.baseUrl);
  return ok(
    pagedBundle({
      operationId: PAYORS_OP,
      type: 'searchset',
      matches: await ctx.repo.payors(siteId),
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (p) => ({ fullUrl: `${url}/contract/${p.contractId}`, resource: payorContractOf(p, url) }),
    }),
  );
}

/** Create or update payor and contact as payor (4.5): one route, told apart by the authority. */
export async function upsertPayor(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, UPSERT_PAYOR_OP);
  const body = parseContract(req);
  const siteId = siteOf(body);
  const authority = arr(body.authority)[0];
  const reference = member(authority, 'reference');
  if (!isText(reference))
    throw missing('Contract.authority with reference Organization/<payor> or Person/<contact> is required');
  const m = /^(Organization|Person)\/(.+)$/.exec(reference.trim());
  if (!m)
    throw badFormat(
      `Contract.authority.reference must be Organization/<payor> or Person/<contact>, received ${reference}`,
    );
  const authorityDisplay = member(authority, 'display');
  const type: PayorType = m[1] === 'Organization' ? 'I' : 'C';
  const payorId = m[2];
  requireShape(REQUEST_BODY_SCHEMAS[UPSERT_PAYOR_OP], body, CONTRACT_SHAPE);
  const payors = await ctx.repo.payors(siteId);
  let target: Payor | undefined;
  const contractId = body.id;
  if (contractId !== undefined) {
    if (!isText(contractId)) throw badFormat('Contract.id must be a non-empty string');
    target = payors.find((p) => p.contractId === contractId);
    if (!target)
      throw new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', `No payor contract ${contractId} at site ${siteId}`);
    if (target.type !== type)
      throw new ApiError(
        422,
        'MSG_PARAM_INVALID',
        `Contract ${contractId} is ${target.type === 'I' ? 'an insurer payor' : 'a contact payor'}`,
      );
  } else {
    target = payors.find((p) => p.type === type && p.payorId === payorId);
  }
  const payor: Payor = {
    contractId: target?.contractId ?? (await ctx.repo.newId('payor')),
    siteId,
    type,
    payorId,
    display: isText(authorityDisplay) ? authorityDisplay : (target?.display ?? payorId),
    lastUpdated: now(),
  };
  await ctx.repo.savePayor(payor);
  return ok(payorContractOf(payor, contractsUrl(ctx.baseUrl)));
}

/** Delete payor and delete contact as payor (4.5): one route, told apart by payorType. */
export async function deletePayor(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, DELETE_PAYOR_OP);
  const rawType = (req.query.get('payorType') ?? req.query.get('payerType') ?? '').trim();
  if (rawType === '') throw missing('Parameter payorType is required');
  if (rawType !== 'I' && rawType !== 'C') throw badFormat(`Parameter payorType must be I or C, received ${rawType}`);
  const operationId = rawType === 'I' ? DELETE_PAYOR_OP : DELETE_CONTACT_OP;
  const values = readParameters(ctx, {
    operationId,
    profile: CONTRACT_PROFILE,
    source: req.query,
    path: req.params,
    aliases: { payerId: 'payorId', payerType: 'payorType' },
  });
  const prefix = rawType === 'I' ? 'Organization' : 'Person';
  const m = /^(Organization|Person)\/(.+)$/.exec(values.payorId);
  if (m && m[1] !== prefix)
    throw badFormat(`Parameter payorId must be ${prefix}/<id> for payorType ${rawType}, received ${values.payorId}`);
  const payorId = m ? m[2] : values.payorId;
  const payor = (await ctx.repo.payors(values.site)).find(
    (p) => p.type === rawType && p.payorId === payorId && p.contractId === values.providerGroup,
  );
  if (!payor)
    throw new ApiError(
      404,
      'MSG_ENTITY_NOT_FOUND_IN_DATABASE',
      `No payor ${prefix}/${payorId} with contract ${values.providerGroup} at site ${values.site}`,
    );
  await ctx.repo.removePayor(payor.siteId, payor.contractId);
  for (const c of await ctx.repo.priceContracts(payor.siteId)) {
    if (c.payorType === payor.type && c.payorId === payor.payorId) await ctx.repo.removePriceContract(c.id);
  }
  return ok(
    deletedOutcome(
      `Deleted payor ${payorReference(payor.type, payor.payorId)} (contract ${payor.contractId}) of site ${payor.siteId}`,
    ),
  );
}

interface Coded {
  code: string;
  display?: string;
}

/** One PriceGroupAssignment asset of a set request. */
interface AssetRequest {
  payor?: { type: PayorType; id: string };
  locationId?: string;
  isESTV?: 'Y' | 'N';
  services: Coded[];
  procedures: Coded[];
  /** Fees by code; `undefined` code = a valued item with a fee and no coding. */
  fees: { code?: string; system: 'service' | 'procedure' | 'none'; value: number }[];
}

function parseAsset(asset: unknown, k: number): AssetRequest {
  const out: AssetRequest = { services: [], procedures: [], fees: [] };
  for (const c of arr(member(asset, 'context'))) {
    const direct = member(c, 'reference');
    const ref = typeof direct === 'string' ? direct : member(direct, 'reference');
    if (typeof ref !== 'string') continue;
    const payor = /^Payor\/([IC])-(.+)$/.exec(ref.trim()) ?? /^([IC])\/(.+)$/.exec(ref.trim());
    if (payor) out.payor = { type: payor[1] as PayorType, id: payor[2] };
    const location = /^Location\/(.+)$/.exec(ref.trim());
    if (location) out.locationId = location[1];
  }
  const estv = member(
    arr(member(asset, 'extension')).find((e) => /\/isESTV$/.test(String(member(e, 'url')))),
    'valueString',
  );
  if (estv === 'Y' || estv === 'N') out.isESTV = estv;
  const items = arr(member(asset, 'valuedItem'));
  if (items.length === 0) throw missing(`Contract.term.asset[${k}].valuedItem is required`);
  items.forEach((item, j) => {
    const codings = arr(member(member(item, 'entityCodeableConcept'), 'coding'));
    let system: 'service' | 'procedure' | 'none' = 'none';
    let code: string | undefined;
    for (const coding of codings) {
      const value = member(coding, 'code');
      if (!isText(value)) throw missing(`Contract.term.asset[${k}].valuedItem[${j}] coding code is required`);
      const s = String(member(coding, 'system') ?? '');
      const display = member(coding, 'display');
      const entry = { code: value.trim(), ...(isText(display) ? { display } : {}) };
      if (s.toUpperCase() === SERVICE_SYSTEM) out.services.push(entry);
      else if (s === PROCEDURE_SYSTEM || s.endsWith('/procedure')) out.procedures.push(entry);
      else
        throw badFormat(
          `Contract.term.asset[${k}].valuedItem[${j}] coding system must be ${SERVICE_SYSTEM} or {ref_url}/procedure, received ${s}`,
        );
      if (code === undefined)
        [system, code] = [s.toUpperCase() === SERVICE_SYSTEM ? 'service' : 'procedure', entry.code];
    }
    const net = member(item, 'net');
    if (net !== undefined) {
      const value = member(net, 'value');
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        throw badFormat(`Contract.term.asset[${k}].valuedItem[${j}].net.value must be a non-negative number`);
      out.fees.push({ code, system, value });
    }
  });
  return out;
}

function serviceIn(c: PriceContract, code: Coded): ServicePrice {
  let s = c.services.find((x) => x.code === code.code);
  if (!s) {
    s = { code: code.code, display: code.display ?? code.code, procedures: [] };
    c.services.push(s);
  } else if (code.display !== undefined) s.display = code.display;
  return s;
}

/** The price contract that holds the service, else the payor's default contract (created when missing). */
async function targetContract(
  ctx: SandboxContext,
  siteId: string,
  a: AssetRequest,
  practitionerId: string | undefined,
): Promise<PriceContract> {
  const payor = a.payor as { type: PayorType; id: string };
  const candidates = (await ctx.repo.priceContracts(siteId)).filter(
    (c) =>
      c.payorType === payor.type &&
      c.payorId === payor.id &&
      (practitionerId === undefined || c.practitioner?.id === practitionerId) &&
      (a.locationId === undefined || c.locationId === a.locationId),
  );
  const serviceCode = a.services[0]?.code;
  const holding = candidates.find((c) => c.services.some((s) => s.code === serviceCode));
  if (holding) return holding;
  const subType: PriceSubType =
    payor.id === 'slf' ? 'SELF_PAY' : practitionerId !== undefined ? 'PRACTITIONER_BESPOKE_CONTRACT' : 'FEE_SCHEDULE';
  const same = candidates.find(
    (c) => c.subType === subType && c.practitioner?.id === practitionerId && c.locationId === a.locationId,
  );
  if (same) return same;
  const practitioner =
    practitionerId === undefined
      ? undefined
      : (await ctx.repo.registerPractitioners()).find((p) => p.id === practitionerId);
  return {
    id: await ctx.repo.newId('price'),
    siteId,
    subType,
    payorType: payor.type,
    payorId: payor.id,
    ...(practitionerId === undefined
      ? {}
      : {
          practitioner: {
            id: practitionerId,
            display: practitioner
              ? `${practitioner.prefix} ${practitioner.given.join(' ')} ${practitioner.family}`
              : practitionerId,
          },
        }),
    ...(a.locationId === undefined ? {} : { locationId: a.locationId }),
    isESTV: 'N',
    lastUpdated: now(),
    services: [],
  };
}

function applyAsset(c: PriceContract, a: AssetRequest): void {
  if (a.services.length === 0) return;
  const services = a.services.map((code) => serviceIn(c, code));
  const anchor = services[0];
  const procedures = a.procedures.map((code) => {
    let p = anchor.procedures.find((x) => x.code === code.code);
    if (!p) {
      p = { code: code.code, display: code.display ?? code.code };
      anchor.procedures.push(p);
    } else if (code.display !== undefined) p.display = code.display;
    return p;
  });
  for (const fee of a.fees) {
    if (fee.system === 'service') {
      const s = services.find((x) => x.code === fee.code);
      if (s) s.fee = fee.value;
    } else if (fee.system === 'procedure') {
      const p = procedures.find((x) => x.code === fee.code);
      if (p) p.fee = fee.value;
    } else if (procedures.length > 0) procedures[procedures.length - 1].fee = fee.value;
    else anchor.fee = fee.value;
  }
  if (a.isESTV !== undefined) c.isESTV = a.isESTV;
  c.lastUpdated = now();
}

async function payorDisplay(ctx: SandboxContext, siteId: string, type: PayorType, payorId: string): Promise<string> {
  return (await ctx.repo.payors(siteId)).find((p) => p.type === type && p.payorId === payorId)?.display ?? payorId;
}

async function renderPrice(ctx: SandboxContext, c: PriceContract): Promise<Record<string, unknown>> {
  const location =
    c.locationId === undefined ? undefined : (await ctx.repo.locations()).find((l) => l.id === c.locationId);
  return priceContractOf(c, contractsUrl(ctx.baseUrl), {
    payorDisplay: await payorDisplay(ctx, c.siteId, c.payorType, c.payorId),
    ...(location ? { locationDisplay: location.name } : {}),
  });
}

/** Set contract service, service with procedure, price (4.5): one route, told apart by the valued items. */
export async function setContractPrice(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, SET_SERVICE_OP);
  const body = parseContract(req);
  const siteId = siteOf(body);
  const practitionerId = referencedId(body.subject, 'Practitioner');
  const rawAssets = arr(body.term).flatMap((t) => arr(member(t, 'asset')));
  if (rawAssets.length === 0) throw missing('Contract.term[].asset[] is required');
  const assets = rawAssets.map(parseAsset);
  const payors = await ctx.repo.payors(siteId);
  for (const [k, a] of assets.entries()) {
    if (!a.payor) throw missing(`Contract.term.asset[${k}].context with reference Payor/I-<payor> is required`);
    if (a.services.length === 0 && a.procedures.length === 0)
      throw missing(`Contract.term.asset[${k}].valuedItem needs a service code (system ${SERVICE_SYSTEM})`);
    if (a.services.length === 0) {
      throw missing(
        `Contract.term.asset[${k}]: a service code (system ${SERVICE_SYSTEM}) must accompany a procedure code`,
      );
    }
    const payor = a.payor;
    if (!payors.some((p) => p.type === payor.type && p.payorId === payor.id)) {
      throw new ApiError(
        422,
        'MSG_REFERENCE_ID_NOT_FOUND',
        `${payorReference(payor.type, payor.id)} is not a payor of site ${siteId}`,
      );
    }
  }
  requireShape(REQUEST_BODY_SCHEMAS[SET_SERVICE_OP], body, CONTRACT_SHAPE);
  let first: PriceContract | undefined;
  for (const a of assets) {
    const target = await targetContract(ctx, siteId, a, practitionerId);
    applyAsset(target, a);
    await ctx.repo.savePriceContract(target);
    first ??= target;
  }
  return ok(await renderPrice(ctx, first as PriceContract));
}

/** Delete contract service, and service with procedure (4.5): one route, told apart by procedureCode. */
export async function deleteContractService(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, DELETE_SERVICE_OP);
  const operationId =
    (req.query.get('procedureCode') ?? '').trim() === '' ? DELETE_SERVICE_OP : DELETE_WITH_PROCEDURE_OP;
  const values = readParameters(ctx, { operationId, profile: CONTRACT_PROFILE, source: req.query, path: req.params });
  const { site, indStdCode, procedureCode } = values;
  let removed = 0;
  for (const c of await ctx.repo.priceContracts(site)) {
    let changed = false;
    if (procedureCode === undefined) {
      const kept = c.services.filter((s) => s.code !== indStdCode);
      changed = kept.length < c.services.length;
      c.services = kept;
    } else {
      for (const s of c.services.filter((x) => x.code === indStdCode)) {
        const kept = s.procedures.filter((p) => p.code !== procedureCode);
        changed ||= kept.length < s.procedures.length;
        s.procedures = kept;
      }
    }
    if (changed) {
      removed++;
      c.lastUpdated = now();
      await ctx.repo.savePriceContract(c);
    }
  }
  const what =
    procedureCode === undefined ? `service ${indStdCode}` : `procedure ${procedureCode} of service ${indStdCode}`;
  if (removed === 0)
    throw new ApiError(404, 'MSG_ENTITY_NOT_FOUND_IN_DATABASE', `No contract of site ${site} holds ${what}`);
  return ok(deletedOutcome(`Deleted ${what} from ${removed} contract(s) of site ${site}`));
}

export async function getEffectivePrices(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, EFFECTIVE_PRICES_OP);
  const values = readParameters(ctx, {
    operationId: EFFECTIVE_PRICES_OP,
    profile: CONTRACT_PROFILE,
    source: req.query,
  });
  const listed = values.payor
    ?.split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const serviceCode = values['service-code'];
  const matches = (await ctx.repo.priceContracts(values.site))
    .filter((c) => listed === undefined || listed.some((p) => p === c.payorId || p === `${c.payorType}-${c.payorId}`))
    .filter((c) => values.location === undefined || c.locationId === undefined || c.locationId === values.location)
    .filter((c) => values._since === undefined || since(values._since)(c.lastUpdated))
    .map((c) => (serviceCode === undefined ? c : { ...c, services: c.services.filter((s) => s.code === serviceCode) }))
    .filter((c) => c.services.length > 0);
  const rendered = await Promise.all(matches.map((c) => renderPrice(ctx, c)));
  const url = contractsUrl(ctx.baseUrl);
  return ok(
    pagedBundle({
      operationId: EFFECTIVE_PRICES_OP,
      type: 'searchset',
      matches: rendered,
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (resource) => ({ fullUrl: `${url}/contract/${String(resource.id)}`, resource }),
    }),
  );
}
