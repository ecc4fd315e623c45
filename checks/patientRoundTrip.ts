import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { patientExtensionName } from '../core/readers/patientExtension.ts';
import { listBrief } from './listBrief.ts';
import { describe, readObject } from './readJson.ts';

/** The list members of a Patient that must come back, and the item members compared. */
const LISTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['name', ['family', 'given', 'prefix']],
  ['telecom', ['system', 'value', 'use']],
  ['address', ['type', 'text', 'line', 'city', 'postalCode']],
  ['extension', ['url', 'valueString']],
];
const SCALARS = ['gender', 'birthDate'] as const;

/** Deep equality of JSON values: arrays in order, objects by their members in any order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isRecord(a)) {
    if (!isRecord(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

/** The returned item holds the sent item's value for each compared member the sent item has. */
function holds(sent: Record<string, unknown>, got: unknown, members: readonly string[]): boolean {
  return isRecord(got) && members.every((m) => sent[m] === undefined || sameJson(sent[m], got[m]));
}

/**
 * The sent items that find no returned item holding them, each returned item serving one sent
 * item (a maximum bipartite matching, so order and duplicates are handled).
 */
function unmatched(
  sent: readonly Record<string, unknown>[],
  got: readonly unknown[],
  members: readonly string[],
): Record<string, unknown>[] {
  const fits = sent.map((s) => got.map((g) => holds(s, g, members)));
  const owner = new Array<number>(got.length).fill(-1);
  const assign = (w: number, seen: boolean[]): boolean => {
    for (let o = 0; o < got.length; o++) {
      if (seen[o] || !fits[w][o]) continue;
      seen[o] = true;
      if (owner[o] < 0 || assign(owner[o], seen)) {
        owner[o] = w;
        return true;
      }
    }
    return false;
  };
  return sent.filter((_, w) => !assign(w, new Array<boolean>(got.length).fill(false)));
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/**
 * An item as it is compared: an extension by the name its URL ends with, not by the prefix
 * (DEC-D3-30: `{ref_url}` is not defined, a target may answer under its own).
 */
const asCompared = (member: string, item: unknown): unknown =>
  member === 'extension' && isRecord(item) && patientExtensionName(item.url) !== undefined
    ? { ...item, url: patientExtensionName(item.url) }
    : item;

/** The compared members of a sent item, for messages. */
function pick(item: Record<string, unknown>, members: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(members.filter((m) => item[m] !== undefined).map((m) => [m, item[m]]));
}

/**
 * The returned Patient holds every value that was sent (document 3, 2.4 and 4.4: create, get
 * and update return the Patient): `gender` and `birthDate` equal; each sent `name` (`family`,
 * `given`, `prefix`), `telecom` (`system`, `value`, `use`), `address` (`type`, `text`, `line`,
 * `city`, `postalCode`) and `extension` (`url`, `valueString`) is found among the returned
 * items, in any order, an extension by the name its URL ends with (DEC-D3-30). Only the members that were sent are compared, so what the server adds
 * (`id`, `active`, item ids, `deceasedBoolean`, `meta`) is ignored; values inside a member
 * (such as `given[]` or `line[]`) must be equal, in order.
 */
export function patientRoundTrip(sent: Record<string, unknown>): Check {
  return {
    id: 'patient-round-trip',
    summary: 'The returned Patient holds every value that was sent',
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const got = body.value;
      if (got.resourceType !== 'Patient') return fail(`Expected a Patient, received ${describe(got)}`);
      const problems: string[] = [];
      let compared = 0;
      for (const member of SCALARS) {
        if (sent[member] === undefined) continue;
        compared += 1;
        // DEC-D3-31: the birth date passes under either name, `birthDate` (prose) or `birthdate` (table).
        const value = member === 'birthDate' && got.birthDate === undefined ? got.birthdate : got[member];
        if (!sameJson(sent[member], value))
          problems.push(`${member} ${show(sent[member], 40)} came back as ${show(value, 40)}`);
      }
      for (const [member, itemMembers] of LISTS) {
        const wanted = asList(sent[member]).filter(isRecord);
        if (wanted.length === 0) continue;
        compared += wanted.length;
        const returned = Array.isArray(got[member]) ? (got[member] as unknown[]).map((g) => asCompared(member, g)) : [];
        const asSent = wanted.map((w) => ({ sent: w, as: asCompared(member, w) as Record<string, unknown> }));
        const missing = new Set(
          unmatched(
            asSent.map((w) => w.as),
            returned,
            itemMembers,
          ),
        );
        for (const { sent: item } of asSent.filter((w) => missing.has(w.as)))
          problems.push(`${member} ${show(pick(item, itemMembers), 100)} not returned`);
      }
      const evidence = { compared, missing: problems.length };
      if (problems.length === 0) return pass(`all ${compared} sent values returned`, evidence);
      return fail(
        `Expected the returned Patient to hold every sent value, received ${problems.length} missing or changed: ${listBrief(problems, 3)}`,
        {
          ...evidence,
          problems: problems.slice(0, 20),
        },
      );
    },
  };
}
