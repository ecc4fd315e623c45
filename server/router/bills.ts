/**
 * Bills: search of an insurer's bills and get one bill (Document 1, 2.8, 4.11, 4.12;
 * DEC-D1-13, -30, -31).
 */
import type { Bill } from '../repo/model.ts';
import { billOf } from '../resources/bill.ts';
import { authorise } from './auth.ts';
import { ApiError } from './errors.ts';
import { singlePageBundle } from './paging.ts';
import { CLEARING_PROFILE, readParameters, sameText } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const SEARCH_OP = 'search-bills';
const GET_OP = 'get-bill';

const FILTERS: Readonly<Record<string, (b: Bill, v: string) => boolean>> = {
  insurerid: (b, v) => sameText(b.insurer, v),
  membershipNumber: (b, v) => sameText(b.membershipNumber, v),
  invoiceNumber: (b, v) => sameText(b.invoiceNumber, v),
  cuid: (b, v) => sameText(b.cuid, v),
};

export async function searchBills(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, SEARCH_OP);
  const values = readParameters(ctx, { operationId: SEARCH_OP, profile: CLEARING_PROFILE, source: req.query });
  const active = Object.entries(values).filter(([name]) => FILTERS[name] !== undefined);
  const matches = (await ctx.repo.bills()).filter((b) => active.every(([name, v]) => FILTERS[name](b, v)));
  return ok(
    singlePageBundle(
      'searchset',
      matches.map((b) => ({ resource: billOf(b, false) })),
    ),
  );
}

export async function getBill(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  await authorise(req, ctx, GET_OP);
  const { claimId, isArchived } = readParameters(ctx, {
    operationId: GET_OP,
    profile: CLEARING_PROFILE,
    source: req.query,
    path: req.params,
  });
  const bill = await ctx.repo.bill(claimId);
  if (!bill || String(bill.archived) !== isArchived) {
    throw new ApiError(
      404,
      'MSG_ENTITY_NOT_FOUND',
      `No ${isArchived === 'true' ? 'archived' : 'live'} bill ${claimId}`,
    );
  }
  return ok(billOf(bill, true));
}
