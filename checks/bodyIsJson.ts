import { fail, pass, skip, type Check } from '../core/check.ts';
import { parseJson } from '../core/exchange.ts';
import { bodyStart } from './readJson.ts';

/**
 * A non-empty response body parses as JSON (document 1, section 1 "Conventions: payloads are
 * JSON"). A body cut at the suite's size cap is skipped, not failed.
 */
export const bodyIsJson: Check = {
  id: 'body-is-json',
  summary: 'A non-empty response body is JSON',
  appliesTo: (x) => x.response.bodyText.trim() !== '',
  run: (x) => {
    if (x.response.truncated) return skip('Body truncated at the size cap, cannot judge it');
    const parsed = parseJson(x);
    if (parsed.ok) return pass('body parses as JSON');
    const reason = parsed.error.replace(/\s+/g, ' ').slice(0, 120);
    return fail(`Expected a JSON body, received text that does not parse (${reason}): ${bodyStart(x)}`);
  },
};
