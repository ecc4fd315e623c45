import { fail, pass, show, type Check } from '../core/check.ts';
import { pagingTags } from '../core/exchange.ts';
import { readObject } from './readJson.ts';

export interface PagingRequest {
  page?: number;
  count?: number;
}

/** The tag's value as text; a mistyped number still counts by value (its type is judged by pagingTagsPresent). */
function tagValue(display: unknown): string | undefined {
  return typeof display === 'string' || typeof display === 'number' ? String(display) : undefined;
}

/**
 * The paging tags echo the request: the `page` tag equals the requested page and the `count`
 * tag the requested count (document 1, 2.1; DEC-D1-12). Applies when page or count was sent.
 */
export function pagingTagsMatchRequest(request: PagingRequest): Check {
  const wanted = (['page', 'count'] as const).filter((k) => request[k] !== undefined);
  return {
    id: 'paging-tags-match-request',
    summary: 'The page and count tags equal the requested page and count',
    appliesTo: () => wanted.length > 0,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const tags = pagingTags(body.value);
      const expected = wanted.map((k) => `${k}=${show(String(request[k]))}`).join(', ');
      const received = wanted.map((k) => `${k}=${tags.has(k) ? show(tags.get(k), 40) : '<absent>'}`).join(', ');
      const ok = wanted.every((k) => tagValue(tags.get(k)) === String(request[k]));
      return ok ? pass(received) : fail(`Expected tags ${expected}, received ${received}`);
    },
  };
}
