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

/** The entries of a Bundle page, or the items of a ValueSet expansion; undefined when it holds neither. */
function itemsOnPage(body: unknown): number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.entry)) return b.entry.length;
  const expansion = b.expansion as Record<string, unknown> | undefined;
  if (typeof expansion === 'object' && expansion !== null && Array.isArray(expansion.contains))
    return expansion.contains.length;
  return 0;
}

/**
 * The paging tags echo the request: the `page` tag equals the requested page, and the `count` tag
 * the requested count or, where the server applies a smaller page size of its own, that size (a
 * positive number below the requested count, the page holding no more entries than it; D1 4.3
 * "Maximum records per page", D1 8 page size "not shown"; DEC-D1-12, DEC-R-06). Applies when
 * page or count was sent.
 */
export function pagingTagsMatchRequest(request: PagingRequest): Check {
  const wanted = (['page', 'count'] as const).filter((k) => request[k] !== undefined);
  return {
    id: 'paging-tags-match-request',
    summary:
      'The page tag equals the requested page, the count tag the requested count or the smaller page size served',
    appliesTo: () => wanted.length > 0,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      const tags = pagingTags(body.value);
      const expected = wanted.map((k) => `${k}=${show(String(request[k]))}`).join(', ');
      const received = wanted.map((k) => `${k}=${tags.has(k) ? show(tags.get(k), 40) : '<absent>'}`).join(', ');
      const items = itemsOnPage(body.value) ?? 0;
      const smallerSize = (k: 'page' | 'count'): boolean => {
        if (k !== 'count' || request.count === undefined) return false;
        const v = tagValue(tags.get(k));
        if (v === undefined || !/^[0-9]+$/.test(v)) return false;
        const size = Number(v);
        return size > 0 && size < request.count && items <= size;
      };
      const echoes = (k: 'page' | 'count') => tagValue(tags.get(k)) === String(request[k]);
      if (wanted.every(echoes)) return pass(received);
      if (wanted.every((k) => echoes(k) || smallerSize(k)))
        return pass(`${received} (a page size of the server's own, below the ${request.count} asked for; DEC-R-06)`, {
          entries: items,
        });
      return fail(
        `Expected tags ${expected}${wanted.includes('count') ? ' (or a smaller page size the page keeps to)' : ''}, received ${received}`,
        { entries: items },
      );
    },
  };
}
