/**
 * Search Authorisation (Document 1, 4.3; DEC-D1-22, -23): pre-authorisation Claims of the
 * caller's site, every filter, `_sort` on the issue date (`created`), `_since` on meta.lastUpdated.
 */
import type { Authorisation } from '../repo/model.ts';
import { preauthorisationOf } from '../resources/preauthorisation.ts';
import { authorise } from './auth.ts';
import { pagedBundle, pagingOf } from './paging.ts';
import { SEARCH_PROFILE, minuteRange, readParameters, sameText, since } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const OP = 'search-authorisation';

type Filter = (a: Authorisation, v: string) => boolean;

/** The filter parameters of 4.3, by name. */
export const FILTERS: Readonly<Record<string, Filter>> = {
  insurerIdentifier: (a, v) => a.insurer === v,
  caseCode: (a, v) => sameText(a.caseCode, v),
  authCode: (a, v) => sameText(a.authCode, v),
  membershipNumber: (a, v) => sameText(a.membershipNumber, v),
  status: (a, v) => a.readStatus === v,
  preAuthStatus: (a, v) => v === 'All' || a.preAuthStatus === v,
  actionStatus: (a, v) => a.actionStatus === v,
  issueDate: (a, v) => minuteRange(v)(a.issueDate),
  requestedDate: (a, v) => minuteRange(v)(a.requestedDate),
  lastUpdatedOn: (a, v) => minuteRange(v)(a.lastUpdated),
  _since: (a, v) => since(v)(a.lastUpdated),
};

const byId = (a: Authorisation, b: Authorisation) => a.id.localeCompare(b.id);
const byIssueDate = (a: Authorisation, b: Authorisation) =>
  Date.parse(a.issueDate) - Date.parse(b.issueDate) || byId(a, b);

export async function searchAuthorisation(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const caller = await authorise(req, ctx, OP);
  const values = readParameters(ctx, {
    operationId: OP,
    profile: SEARCH_PROFILE,
    source: caller.form,
    client: caller.client,
  });
  const filters = Object.entries(values).filter(([name]) => FILTERS[name] !== undefined);
  const matches = (await ctx.repo.authorisations(caller.siteId)).filter((a) =>
    filters.every(([name, v]) => FILTERS[name](a, v)),
  );
  const sorted = [...matches].sort(values._sort === undefined ? byId : byIssueDate);
  if (values._sort === '-issueDate') sorted.reverse();
  return ok(
    pagedBundle({
      operationId: OP,
      type: 'searchset',
      matches: sorted,
      paging: pagingOf(values),
      totalTag: 'maxCount',
      entry: (a) => ({ resource: preauthorisationOf(a) }),
    }),
  );
}
