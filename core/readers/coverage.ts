/**
 * The one reader of whom a Coverage stands for (Document 1, 2.2): its member (the contained
 * Patient) and its member number (the insurer's identifier for the member, `identifier[]` with
 * `id` = `membershipNumber`). Checks and suites that compare a Find Member answer with its search
 * ask here. Never throws on odd shapes.
 */

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A list member may be written as one object where the documents show a list. */
const records = (value: unknown): Rec[] => (Array.isArray(value) ? value : [value]).filter(isRec);

/** The member: the contained Patient the beneficiary points at, else the first contained Patient. */
export function coverageMember(coverage: Rec): Rec | undefined {
  const patients = records(coverage.contained).filter((r) => r.resourceType === 'Patient');
  const ref = isRec(coverage.beneficiary) ? coverage.beneficiary.reference : undefined;
  const target =
    typeof ref === 'string' && ref.startsWith('#') ? patients.find((p) => p.id === ref.slice(1)) : undefined;
  return target ?? patients[0];
}

/**
 * The member numbers a Coverage carries: the `value` of each `identifier[]` entry whose `id` is
 * `membershipNumber`; where no entry carries that `id`, every entry's `value` (2.2 holds one entry,
 * Insurer Identifier 1-1, so any of them is the insurer's identifier for the member).
 */
export function coverageMembershipNumbers(coverage: Rec): string[] {
  const entries = records(coverage.identifier);
  const named = entries.filter((i) => i.id === 'membershipNumber');
  return (named.length > 0 ? named : entries).map((i) => i.value).filter((v): v is string => typeof v === 'string');
}

/**
 * True when the Coverage carries the searched member number: equal ignoring surrounding spaces and
 * letter case (the documents state no match rule for it); undefined when it carries none.
 */
export function coverageHasMembershipNumber(coverage: Rec, membershipNumber: string): boolean | undefined {
  const numbers = coverageMembershipNumbers(coverage);
  if (numbers.length === 0) return undefined;
  const fold = (s: string) => s.trim().toLowerCase();
  return numbers.some((n) => fold(n) === fold(membershipNumber));
}
