import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { type ClientRequest, headerOf } from '../core/clientRequest.ts';
import type { HeaderRequirement } from '../spec/types.ts';

/** Media type of a Content-Type value, parameters (charset) dropped, lower-cased. */
const mediaType = (value: string): string => value.split(';')[0].trim().toLowerCase();

/** What the value must look like: the table writes `{...}` where the caller fills a value in. */
function expectation(header: HeaderRequirement): { describe: string; accepts: (value: string) => boolean } {
  const scheme = /^(Bearer|Basic) \{\w+\}$/.exec(header.value)?.[1];
  // RFC 9110 11.1: the authentication scheme is case-insensitive.
  if (scheme)
    return { describe: `${scheme} <credentials>`, accepts: (v) => new RegExp(`^${scheme} +\\S+`, 'i').test(v) };
  if (/^\{\w+\}$/.test(header.value)) return { describe: 'a value', accepts: (v) => v.trim() !== '' };
  if (header.name.toLowerCase() === 'content-type')
    return { describe: header.value, accepts: (v) => mediaType(v) === mediaType(header.value) };
  return { describe: header.value, accepts: (v) => v.trim() === header.value };
}

/**
 * The client sends a header the operation's row lists (Document 1 section 4, Document 2 section 4,
 * Document 3 section 4: each operation's "Headers"), with the fixed value where the documents fix
 * one (`SVC-API-Version: 2`, the form Content-Type), the scheme where they name one (`Bearer`,
 * `Basic`), and any value where the caller fills one in (`SU-SiteId: <site_id>`). A Content-Type
 * is judged only on a request that has content (RFC 9110 8.3).
 */
export const clientSendsHeader = (header: HeaderRequirement): Check<ClientRequest> => ({
  id: 'client-sends-header',
  summary: `The request carries ${header.name}: ${header.value}`,
  run: (request) => {
    const hasContent = request.body !== undefined && request.body !== '';
    if (header.name.toLowerCase() === 'content-type' && !hasContent)
      return skip('A request without content needs no Content-Type (RFC 9110 8.3)');
    const value = headerOf(request, header.name);
    const wanted = expectation(header);
    if (value === undefined) return fail(`Expected the header ${header.name}: ${wanted.describe}, received none`);
    return wanted.accepts(value)
      ? pass(`${header.name} sent`, { header: header.name })
      : fail(`Expected ${header.name}: ${wanted.describe}, received ${show(value)}`, { header: header.name, value });
  },
});
