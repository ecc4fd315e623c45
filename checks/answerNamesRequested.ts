import { fail, pass, show, type Check } from '../core/check.ts';
import { describe, readObject } from './readJson.ts';

/**
 * The object answered names the entity the request asked for (document 3, 4.1; DEC-D3-24,
 * DEC-D3-27): its top-level `member` equals the value the request named (a header, a path
 * parameter, the configured user), compared as text. Another entity's record is the wrong answer.
 */
export function answerNamesRequested(member: string, requested: string, source: string): Check {
  return {
    id: 'answer-names-requested',
    summary: `The answer's ${member} is ${show(requested)}, the ${source}`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const got = body.value[member];
      const evidence = { member, requested, source };
      if ((typeof got === 'string' || typeof got === 'number') && String(got) === requested)
        return pass(`${member} ${show(requested)}`, evidence);
      return fail(
        `Expected ${member} ${show(requested)} (the ${source}), received ${got === undefined ? `no ${member} in ${describe(body.value)}` : show(got, 60)}`,
        evidence,
      );
    },
  };
}
