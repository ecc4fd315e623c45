import { isDeepStrictEqual } from 'node:util';
import { fail, pass, show, type Check, type Finding } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readObject } from './readJson.ts';

/** The `issue` list of an OperationOutcome answer, or the failure when it has none. */
export function readIssues(x: RespondedExchange): { ok: true; issues: unknown[] } | { ok: false; finding: Finding } {
  const body = readObject(x);
  if (!body.ok) return body;
  const issues = body.value.issue;
  if (!Array.isArray(issues) || issues.length === 0)
    return {
      ok: false,
      finding: fail(`Expected a non-empty issue[], received ${Array.isArray(issues) ? 'an empty list' : show(issues)}`),
    };
  return { ok: true, issues };
}

/**
 * Every issue of an OperationOutcome carries the given members with the given values, compared as
 * JSON (document 1, 2.3; DEC-D1-46: `severity` `error` and `code` `exception` are MUST,
 * `location` [`Coverage`] and an empty `expression` are SHOULD; the level is bound by the suite).
 */
export function outcomeIssuesHave(expected: Readonly<Record<string, unknown>>): Check {
  const wanted = Object.entries(expected);
  const describeWanted = wanted.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ');
  return {
    id: 'outcome-issues-have',
    summary: `Every OperationOutcome issue has ${describeWanted}`,
    run: (x) => {
      const read = readIssues(x);
      if (!read.ok) return read.finding;
      const issues = read.issues;
      const wrong: string[] = [];
      issues.forEach((issue, i) => {
        for (const [name, value] of wanted) {
          const got = isRecord(issue) ? issue[name] : undefined;
          if (!isDeepStrictEqual(got, value))
            wrong.push(`issue[${i}].${name} = ${got === undefined ? '<absent>' : JSON.stringify(got)}`);
        }
      });
      if (wrong.length === 0)
        return pass(`${issues.length} ${issues.length === 1 ? 'issue has' : 'issues have'} ${describeWanted}`, {
          expected: { ...expected },
        });
      return fail(`Expected ${describeWanted} on every issue, received ${listBrief(wrong, 4)}`, {
        wrong: wrong.slice(0, 20),
      });
    },
  };
}
