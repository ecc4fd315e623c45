import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { describe, readObject } from './readJson.ts';

/** Ids of the contained resources of one type. */
function containedIds(coverage: Record<string, unknown>, resourceType: string): string[] {
  if (!Array.isArray(coverage.contained)) return [];
  return coverage.contained
    .filter((r): r is Record<string, unknown> => isRecord(r) && r.resourceType === resourceType)
    .map((r) => r.id)
    .filter((id): id is string => typeof id === 'string');
}

function referenceOf(value: unknown): unknown {
  return isRecord(value) ? value.reference : undefined;
}

/**
 * The Coverage's references point into its own `contained[]`: `beneficiary.reference` is `#`
 * plus the contained Patient's id and every `payor[].reference` is `#` plus a contained
 * Organization's id (document 1, 2.2).
 */
export const coverageReferencesResolve: Check = {
  id: 'coverage-references-resolve',
  summary: 'Coverage beneficiary and payor references resolve to contained resources',
  run: (x) => {
    const read = readObject(x);
    if (!read.ok) return read.finding;
    const coverage = read.value;
    if (coverage.resourceType !== 'Coverage') return fail(`Expected a Coverage, received ${describe(coverage)}`);
    const patients = containedIds(coverage, 'Patient');
    const organizations = containedIds(coverage, 'Organization');
    const problems: string[] = [];
    const beneficiary = referenceOf(coverage.beneficiary);
    if (!(typeof beneficiary === 'string' && beneficiary.startsWith('#') && patients.includes(beneficiary.slice(1)))) {
      problems.push(`beneficiary.reference ${show(beneficiary, 40)}`);
    }
    if (!Array.isArray(coverage.payor) || coverage.payor.length === 0)
      problems.push(`payor ${describe(coverage.payor)}`);
    else {
      coverage.payor.forEach((payor, i) => {
        const ref = referenceOf(payor);
        if (!(typeof ref === 'string' && ref.startsWith('#') && organizations.includes(ref.slice(1)))) {
          problems.push(`payor[${i}].reference ${show(ref, 40)}`);
        }
      });
    }
    const evidence = { containedPatients: patients, containedOrganizations: organizations };
    if (problems.length === 0) return pass('beneficiary and payor references resolve', evidence);
    return fail(
      `Expected references "#<id>" of a contained Patient and Organizations, received ${problems.join('; ')} (contained Patient ids ${show(patients, 40)}, Organization ids ${show(organizations, 40)})`,
      evidence,
    );
  },
};
