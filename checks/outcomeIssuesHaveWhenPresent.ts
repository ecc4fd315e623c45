import { isDeepStrictEqual } from 'node:util';
import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readIssues } from './outcomeIssuesHave.ts';

/**
 * Every OperationOutcome issue that carries one of the given members carries it with the given
 * value, compared as JSON; an issue without the member passes (document 1, 2.3; DEC-D1-46: the
 * parenthesised values are fixed, `location` [`Coverage`] and an empty `expression` are MUST where
 * present, while their presence, which 2.3 gives no cardinality, is judged apart at SHOULD).
 * FHIR JSON writes no empty array, so an expected empty list is also met by an absent member.
 */
export function outcomeIssuesHaveWhenPresent(expected: Readonly<Record<string, unknown>>): Check {
  const wanted = Object.entries(expected);
  const describeWanted = wanted.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ');
  return {
    id: 'outcome-issues-have-when-present',
    summary: `Every OperationOutcome issue that carries them has ${describeWanted}`,
    run: (x) => {
      const read = readIssues(x);
      if (!read.ok) return read.finding;
      const issues = read.issues;
      const wrong: string[] = [];
      let carried = 0;
      issues.forEach((issue, i) => {
        if (!isRecord(issue)) {
          wrong.push(`issue[${i}] = ${show(issue, 40)}`);
          return;
        }
        for (const [name, value] of wanted) {
          if (!(name in issue) || issue[name] === undefined) continue;
          carried += 1;
          if (!isDeepStrictEqual(issue[name], value)) wrong.push(`issue[${i}].${name} = ${show(issue[name], 60)}`);
        }
      });
      const evidence = { expected: { ...expected }, carried };
      if (wrong.length === 0)
        return pass(
          carried === 0
            ? `no issue carries ${wanted.map(([k]) => k).join(' or ')}`
            : `every issue that carries them has ${describeWanted}`,
          evidence,
        );
      return fail(`Expected ${describeWanted} where an issue carries them, received ${listBrief(wrong, 4)}`, {
        ...evidence,
        wrong: wrong.slice(0, 20),
      });
    },
  };
}
