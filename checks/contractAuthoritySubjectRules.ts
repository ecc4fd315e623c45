import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { subTypeDisplays } from './contract.ts';
import { listBrief } from './listBrief.ts';
import { bundleView, describe, isBundle, readObject } from './readJson.ts';
import { resourceLabel } from './resourceKey.ts';

const AUTHORITY_ALLOWED = new Set(['FEE_SCHEDULE', 'PRACTITIONER_BESPOKE_CONTRACT']);
const SUBJECT_ALLOWED = new Set(['PRACTITIONER_BESPOKE_CONTRACT', 'SELF_PAY']);

/** A member is present when it is neither absent, null nor an empty array. */
const present = (value: unknown): boolean =>
  value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);

/** `Site/<id>`, also at the end of an absolute reference: the site owning the contract. */
const SITE = /(?:^|\/)Site\/[^/]+$/;

/**
 * The `subject` entries that name a practitioner: every entry except a reference to the
 * owning site (`Site/<site_id>`, which 2.6 shows on every Contract and 4.5 requires on create).
 */
function practitionerSubjects(subject: unknown): unknown[] {
  if (!present(subject)) return [];
  const entries = Array.isArray(subject) ? subject : [subject];
  return entries.filter((s) => !(isRecord(s) && typeof s.reference === 'string' && SITE.test(s.reference)));
}

/**
 * Contracts fill `authority` and a practitioner `subject` only for their sub types (document 3,
 * 2.6): `authority` is present only when a `subType[].coding[].display` is `FEE_SCHEDULE` or
 * `PRACTITIONER_BESPOKE_CONTRACT`; a practitioner `subject` only when one is
 * `PRACTITIONER_BESPOKE_CONTRACT` or `SELF_PAY`. 2.6 qualifies the rule's subject as
 * "(practitioner)" while every Contract carries its site as `subject` (`Site/<site_id>`, required
 * on create payor), so site references are not judged. Judges a single Contract or every Contract
 * of a Bundle; Contracts whose sub type shows no display are not judged (skip when none is).
 */
export const contractAuthoritySubjectRules: Check = {
  id: 'contract-authority-subject-rules',
  summary:
    'authority only for FEE_SCHEDULE / PRACTITIONER_BESPOKE_CONTRACT, a practitioner subject only for PRACTITIONER_BESPOKE_CONTRACT / SELF_PAY',
  run: (x) => {
    const body = readObject(x);
    if (!body.ok) return body.finding;
    let candidates: Record<string, unknown>[];
    if (body.value.resourceType === 'Contract') {
      candidates = [body.value];
    } else if (isBundle(body.value)) {
      const view = bundleView(body.value);
      if (!view.ok) return view.finding;
      if (view.value.entries.length === 0) return pass('no entries');
      candidates = view.value.resources.filter((r) => r.resourceType === 'Contract');
    } else {
      return fail(`Expected a Contract or a Bundle of Contracts, received ${describe(body.value)}`);
    }
    const offending: string[] = [];
    let judged = 0;
    candidates.forEach((contract, index) => {
      const displays = subTypeDisplays(contract);
      if (displays.length === 0) return;
      judged += 1;
      const label = `${resourceLabel(contract, index)} (${displays.join(', ')})`;
      if (present(contract.authority) && !displays.some((d) => AUTHORITY_ALLOWED.has(d))) {
        offending.push(`${label} has authority ${show(contract.authority, 60)}`);
      }
      const subjects = practitionerSubjects(contract.subject);
      if (subjects.length > 0 && !displays.some((d) => SUBJECT_ALLOWED.has(d))) {
        offending.push(`${label} has subject ${show(subjects.length === 1 ? subjects[0] : subjects, 60)}`);
      }
    });
    const evidence = { contracts: candidates.length, judged, offending: offending.length };
    if (judged === 0)
      return skip(
        `No Contract shows its sub type (${candidates.length} ${candidates.length === 1 ? 'Contract' : 'Contracts'})`,
      );
    if (offending.length === 0) {
      const unjudged = candidates.length - judged;
      return pass(
        `${judged} ${judged === 1 ? 'Contract follows' : 'Contracts follow'} the sub type rules${unjudged > 0 ? ` (${unjudged} without a sub type)` : ''}`,
        evidence,
      );
    }
    return fail(
      `Expected authority only with FEE_SCHEDULE or PRACTITIONER_BESPOKE_CONTRACT and a practitioner subject only with PRACTITIONER_BESPOKE_CONTRACT or SELF_PAY (2.6), received ${listBrief(offending, 3)}`,
      { ...evidence, sample: offending.slice(0, 20) },
    );
  },
};
