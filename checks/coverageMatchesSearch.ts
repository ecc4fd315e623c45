import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { coverageHasMembershipNumber, coverageMember, coverageMembershipNumbers } from '../core/readers/coverage.ts';
import { describe, readObject } from './readJson.ts';

export interface MemberSearch {
  firstInitial?: string;
  lastName?: string;
  dateOfBirth?: string;
  /** The insurer's member id searched for (4.1), compared with the Coverage's Insurer Identifier. */
  membershipNumber?: string;
}

/** `name` may be one HumanName or a list of them; `family` and `given` a string or a list. */
function nameParts(patient: Record<string, unknown>): { family: string[]; given: string[] } {
  const names = Array.isArray(patient.name) ? patient.name : [patient.name];
  const strings = (v: unknown): string[] =>
    (Array.isArray(v) ? v : [v]).filter((s): s is string => typeof s === 'string');
  const family: string[] = [];
  const given: string[] = [];
  for (const name of names) {
    if (!isRecord(name)) continue;
    family.push(...strings(name.family));
    given.push(...strings(name.given));
  }
  return { family, given };
}

const fold = (s: string): string => s.trim().toLowerCase();

/**
 * The returned member is the one searched for: the contained Patient's family name equals
 * `lastName` (ignoring letter case), a given name starts with `firstInitial`, and `birthDate`
 * equals `dateOfBirth`, and its Insurer Identifier equals `membershipNumber` (document 1, 1, 2.2, 4.1,
 * 4.2; read through core/readers/coverage.ts). Only the given search fields are judged.
 */
export function coverageMatchesSearch(search: MemberSearch): Check {
  const fields = Object.entries(search).filter(([, v]) => v !== undefined);
  return {
    id: 'coverage-matches-search',
    summary: 'The Coverage member matches the search details',
    appliesTo: () => fields.length > 0,
    run: (x) => {
      const read = readObject(x);
      if (!read.ok) return read.finding;
      if (read.value.resourceType !== 'Coverage') return fail(`Expected a Coverage, received ${describe(read.value)}`);
      const patient = coverageMember(read.value);
      if (patient === undefined) return fail('Expected a contained Patient, received none');
      const { family, given } = nameParts(patient);
      const birthDate = patient.birthDate;
      const expected: string[] = [];
      const received: string[] = [];
      if (search.lastName !== undefined && !family.some((f) => fold(f) === fold(search.lastName as string))) {
        expected.push(`family ${show(search.lastName, 40)}`);
        received.push(`family ${show(family, 60)}`);
      }
      if (
        search.firstInitial !== undefined &&
        !given.some((g) => fold(g).startsWith(fold(search.firstInitial as string)))
      ) {
        expected.push(`given starting ${show(search.firstInitial, 20)}`);
        received.push(`given ${show(given, 60)}`);
      }
      if (
        search.dateOfBirth !== undefined &&
        !(
          typeof birthDate === 'string' &&
          (birthDate === search.dateOfBirth || birthDate.startsWith(`${search.dateOfBirth}T`))
        )
      ) {
        expected.push(`birthDate ${show(search.dateOfBirth, 20)}`);
        received.push(`birthDate ${show(birthDate, 40)}`);
      }
      // A Coverage without a member number is the schema's finding (D1-2.2-03), not a mismatch.
      const numbers = coverageMembershipNumbers(read.value);
      if (
        search.membershipNumber !== undefined &&
        coverageHasMembershipNumber(read.value, search.membershipNumber) === false
      ) {
        expected.push(`membershipNumber ${show(search.membershipNumber, 40)}`);
        received.push(`membershipNumber ${show(numbers, 60)}`);
      }
      const evidence = { family, given, birthDate, membershipNumbers: numbers };
      if (expected.length === 0) return pass(`member matches ${fields.map(([k]) => k).join(', ')}`, evidence);
      return fail(`Expected the member with ${expected.join(', ')}, received ${received.join(', ')}`, evidence);
    },
  };
}
