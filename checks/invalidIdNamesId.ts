import { fail, pass, show, type Check } from '../core/check.ts';
import { bodyStart } from './readJson.ts';

/**
 * The `InvalidId` answer names the id that matched nothing (document 1, section 7: "an object
 * of type `id` plus the id"; SHOULD per DEC-D1-11). The id may appear raw, JSON-escaped or
 * URL-encoded.
 */
export function invalidIdNamesId(id: string): Check {
  const forms = [...new Set([id, JSON.stringify(id).slice(1, -1), encodeURIComponent(id)])];
  return {
    id: 'invalid-id-names-id',
    summary: 'The InvalidId answer names the id',
    run: (x) => {
      const text = x.response.bodyText;
      return forms.some((f) => text.includes(f))
        ? pass(`body names ${show(id)}`)
        : fail(
            `Expected the body to name the id ${show(id)}, received ${text.trim() === '' ? 'an empty body' : bodyStart(x)}`,
          );
    },
  };
}
