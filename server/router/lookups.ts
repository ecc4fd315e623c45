/**
 * Practitioner and location lookups, insurer list and insurer control parameters (Document 2,
 * 2.3, 4.2-4.5, 7; DEC-D2-07..10, -27, -31). Lookups need `text` (400 without it): a practitioner
 * matches on its name, a location on its name or postcode. The insurer list pages only when
 * `count` is given; an unknown insurer's control parameters are an empty Bundle.
 */
import { randomUUID } from 'node:crypto';
import type { Location, ReferenceInsurer, RegisterPractitioner } from '../repo/model.ts';
import { controlParametersOf, insurerOf, locationOf, lookupPractitionerOf } from '../resources/reference.ts';
import { authorise } from './auth.ts';
import { codeDisplays } from './codeSets.ts';
import { pagedBundle, pagingOf, singlePageBundle } from './paging.ts';
import { LOOKUP_PROFILE, QUERY_PAGING, containsText, readParameters, sameText } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const PRACTITIONER_OP = 'lookup-practitioners';
const LOCATION_OP = 'lookup-locations';
const INSURERS_OP = 'list-insurers';
const CONTROL_OP = 'get-insurer-control-parameters';

const compact = (v: string) => v.replace(/\s+/g, '').toLowerCase();

const practitionerMatches = (p: RegisterPractitioner, text: string) =>
  containsText([...p.given, p.family].join(' '), text);
const locationMatches = (l: Location, text: string) =>
  containsText(l.name, text) || compact(l.postalCode).includes(compact(text));

export async function lookupPractitioners(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, PRACTITIONER_OP);
  const values = readParameters(ctx, { operationId: PRACTITIONER_OP, profile: LOOKUP_PROFILE, source: req.query });
  const matches = (await ctx.repo.registerPractitioners()).filter(
    (p) => values.text === undefined || practitionerMatches(p, values.text),
  );
  const display = await codeDisplays(ctx.repo);
  return ok(
    pagedBundle({
      operationId: PRACTITIONER_OP,
      id: randomUUID(),
      type: 'searchset',
      matches,
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (p) => ({
        fullUrl: `${ctx.baseUrl}/reference/Practitioner/${p.id}`,
        resource: lookupPractitionerOf(p, display),
      }),
    }),
  );
}

export async function lookupLocations(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, LOCATION_OP);
  const values = readParameters(ctx, { operationId: LOCATION_OP, profile: LOOKUP_PROFILE, source: req.query });
  const matches = (await ctx.repo.locations()).filter(
    (l) =>
      (values.text === undefined || locationMatches(l, values.text)) &&
      (values.type === undefined || sameText(l.type, values.type)),
  );
  return ok(
    pagedBundle({
      operationId: LOCATION_OP,
      id: randomUUID(),
      type: 'searchset',
      matches,
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (l) => ({ fullUrl: `${ctx.baseUrl}/reference/Location/${l.id}`, resource: locationOf(l) }),
    }),
  );
}

/** The insurer `type` filter (4.4; DEC-D2-08). */
const INSURER_TYPES: Readonly<Record<string, (i: ReferenceInsurer) => boolean>> = {
  edi: (i) => i.edi === 'Yes',
  mii: (i) => i.insurerType === 'MII',
  all: () => true,
};

export async function listInsurers(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, INSURERS_OP);
  const values = readParameters(ctx, {
    operationId: INSURERS_OP,
    profile: LOOKUP_PROFILE,
    source: req.query,
    extraParameters: QUERY_PAGING,
  });
  const type = values.type ?? 'all';
  const matches = (await ctx.repo.referenceInsurers()).filter(INSURER_TYPES[type]);
  return ok(
    pagedBundle({
      operationId: INSURERS_OP,
      type: 'searchset',
      matches,
      paging: pagingOf(values, matches.length),
      totalTag: 'maxCount',
      entry: (i) => ({ resource: insurerOf(i) }),
    }),
  );
}

export async function getInsurerControlParameters(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, CONTROL_OP);
  const { insurerId } = readParameters(ctx, { operationId: CONTROL_OP, profile: LOOKUP_PROFILE, source: req.query });
  const insurer = (await ctx.repo.referenceInsurers()).find((i) => sameText(i.id, insurerId));
  if (!insurer) return ok(singlePageBundle('searchset', []));
  return ok(controlParametersOf(insurer));
}
