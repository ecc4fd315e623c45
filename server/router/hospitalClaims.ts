/**
 * Hospital claims list and search (Document 1, 2.7, 4.9, 4.10; DEC-D1-13, -29). Not paged: every
 * match is returned, an Encounter and a Claim entry per claim.
 */
import type { HospitalClaim } from '../repo/model.ts';
import { hospitalClaimEntries } from '../resources/hospitalClaim.ts';
import { claimsUrl } from '../resources/urls.ts';
import { authorise } from './auth.ts';
import { singlePageBundle } from './paging.ts';
import { CLEARING_PROFILE, readParameters, sameText } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const LIST_OP = 'list-hospital-claims';
const SEARCH_OP = 'search-hospital-claims';

const FILTERS: Readonly<Record<string, (c: HospitalClaim, v: string) => boolean>> = {
  dateCompleted: (c, v) => c.servicedDate === v,
  treatmentSiteName: (c, v) => sameText(c.treatmentSiteName, v),
  patientLastName: (c, v) => sameText(c.patientFamily, v),
  patientDateOfBirth: (c, v) => c.patientBirthDate === v,
};

async function claimsBundle(req: SandboxRequest, ctx: SandboxContext, operationId: string): Promise<SandboxReply> {
  await authorise(req, ctx, operationId);
  const values = readParameters(ctx, { operationId, profile: CLEARING_PROFILE, source: req.query });
  const active = Object.entries(values).filter(([name]) => FILTERS[name] !== undefined);
  const matches = (await ctx.repo.hospitalClaims()).filter((c) => active.every(([name, v]) => FILTERS[name](c, v)));
  const base = claimsUrl(ctx.baseUrl);
  return ok(
    singlePageBundle(
      'searchset',
      matches.flatMap((c) => hospitalClaimEntries(c, base)),
    ),
  );
}

export const listHospitalClaims = (req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> =>
  claimsBundle(req, ctx, LIST_OP);

export const searchHospitalClaims = (req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> =>
  claimsBundle(req, ctx, SEARCH_OP);
