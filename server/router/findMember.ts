/**
 * Find Member, versions 1 and 2 (Document 1, 4.1, 4.2, 7, 9; DEC-D1-17..20). Both versions share
 * one address; `SVC-API-Version` chooses the operation.
 */
import type { Member } from '../repo/model.ts';
import { coverageOf } from '../resources/coverage.ts';
import { authorise } from './auth.ts';
import { ApiError } from './errors.ts';
import { FIND_MEMBER_PROFILE, readParameters, sameText } from './params.ts';
import { ok, type SandboxContext, type SandboxReply, type SandboxRequest } from './types.ts';

const V1 = 'find-member-v1';
const V2 = 'find-member-v2';
/** The optional fields of the second step of version 2 (4.2). */
export const STEP_TWO_FIELDS = ['sex', 'postCode', 'policyActiveOn'] as const;

export const REFINE_ADVICE = 'More than one member matches; refine the search with sex, postCode and policyActiveOn';
export const CONTACT_INSURER_ADVICE = 'More than one member matches the refined search; contact the insurer';
export const V1_MULTIPLE_ADVICE = 'More than one member matches; refine the search with more member details';

const normalisePostCode = (v: string) => v.replace(/\s+/g, '').toLowerCase();

/** One search field against a member; fields not listed here do not restrict. */
const CRITERIA: Readonly<Record<string, (m: Member, v: string) => boolean>> = {
  insurerIdentifier: (m, v) => m.insurer === v,
  firstInitial: (m, v) => m.given.charAt(0).toLowerCase() === v.charAt(0).toLowerCase(),
  lastName: (m, v) => sameText(m.family, v),
  dateOfBirth: (m, v) => m.birthDate === v,
  sex: (m, v) => sameText(m.sex, v),
  postCode: (m, v) => normalisePostCode(m.address.postalCode) === normalisePostCode(v),
  membershipNumber: (m, v) => sameText(m.membershipNumber, v),
  groupId: (m, v) => m.groupId !== undefined && sameText(m.groupId, v),
  policyActiveOn: (m, v) => m.periodStart.slice(0, 10) <= v && v <= m.periodEnd.slice(0, 10),
};

function search(members: readonly Member[], values: Readonly<Record<string, string>>): Member[] {
  const used = Object.entries(values).filter(([name]) => CRITERIA[name] !== undefined);
  return members.filter((m) => used.every(([name, v]) => CRITERIA[name](m, v)));
}

/** The operation the version header names; a missing or unknown version is refused (DEC-D1-20). */
function versionOf(req: SandboxRequest): { operationId: string; refusal?: ApiError } {
  const version = (req.headers['svc-api-version'] ?? '').trim();
  if (version === '1') return { operationId: V1 };
  if (version === '2') return { operationId: V2 };
  return {
    operationId: V2,
    refusal:
      version === ''
        ? new ApiError(400, 'MSG_MISSING_MANDATORY_PARAM', 'Header SVC-API-Version is required (1 or 2)')
        : new ApiError(422, 'MSG_PARAM_INVALID', `SVC-API-Version must be 1 or 2, received ${version}`),
  };
}

export async function findMember(req: SandboxRequest, ctx: SandboxContext): Promise<SandboxReply> {
  const { operationId, refusal } = versionOf(req);
  const caller = await authorise(req, ctx, operationId);
  if (refusal) throw refusal;
  const v2 = operationId === V2;
  const values = readParameters(ctx, { operationId, profile: FIND_MEMBER_PROFILE, source: caller.form });
  if (
    !v2 &&
    values.membershipNumber === undefined &&
    (values.lastName === undefined || values.dateOfBirth === undefined)
  ) {
    throw new ApiError(
      400,
      'MSG_MISSING_MANDATORY_PARAM',
      'Version 1 needs membershipNumber, or lastName with dateOfBirth (DEC-D1-18)',
    );
  }

  const found = search(await ctx.repo.members(), values);
  if (found.length === 1) return ok(coverageOf(found[0]));
  if (found.length === 0) throw new ApiError(400, 'NO_MATCH_FOUND', 'No member matches the search details');
  const stepTwo = STEP_TWO_FIELDS.some((f) => values[f] !== undefined);
  const advice = !v2 ? V1_MULTIPLE_ADVICE : stepTwo ? CONTACT_INSURER_ADVICE : REFINE_ADVICE;
  throw new ApiError(400, 'MULTIPLE_MATCH_FOUND', advice);
}
