import { fail, pass, show, type Check } from '../core/check.ts';
import { pagingTags } from '../core/exchange.ts';
import { readObject } from './readJson.ts';

const DIGITS = /^[0-9]+$/;

/** What is wrong with one tag's display, or undefined when it is digit text. */
function problem(code: string, tags: Map<string, unknown>): string | undefined {
  if (!tags.has(code)) return `${code} absent`;
  const display = tags.get(code);
  if (typeof display === 'string')
    return DIGITS.test(display) ? undefined : `${code} is ${show(display, 40)}, not digits`;
  if (display === undefined) return `${code} has no display`;
  if (typeof display === 'number') return `${code} is the number ${show(display, 40)}, not text`;
  return `${code} is ${show(display, 40)}, not text`;
}

/**
 * The Bundle carries the paging tags `codes` in `meta.tag[]`, each with a `display` that is the
 * number as text (document 1, 2.1; `maxRecords` in place of `maxCount` on 4.6, DEC-D1-02).
 */
export function pagingTagsPresent(codes: readonly string[]): Check {
  return {
    id: 'paging-tags-present',
    summary: `meta.tag carries ${codes.join(', ')} as digit text`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const tags = pagingTags(body.value);
      const problems = codes.map((c) => problem(c, tags)).filter((p): p is string => p !== undefined);
      const seen = Object.fromEntries([...tags].filter(([c]) => codes.includes(c)));
      if (problems.length === 0)
        return pass(codes.map((c) => `${c}=${String(tags.get(c))}`).join(', '), { tags: seen });
      return fail(`Expected paging tags ${codes.join(', ')} as digit text, received ${problems.join('; ')}`, {
        tags: seen,
      });
    },
  };
}
