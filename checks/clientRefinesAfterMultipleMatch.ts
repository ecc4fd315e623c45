import { fail, pass, skip, type Check } from '../core/check.ts';
import { answerCodes, type ClientExchange, fieldsOf } from '../core/clientRequest.ts';

const OPTIONAL = ['sex', 'postCode', 'policyActiveOn'];

/**
 * Find Member version 2 is a two-step flow (Document 1, 4.2): step 1 sends only the four required
 * fields; after MULTIPLE_MATCH_FOUND the caller repeats the search with the optional fields `sex`,
 * `postCode` and `policyActiveOn` added. Judged on the client's Find Member requests in order: the
 * request after a MULTIPLE_MATCH_FOUND to step 1 carries an optional field.
 */
export const clientRefinesAfterMultipleMatch: Check<readonly ClientExchange[]> = {
  id: 'client-refines-after-multiple-match',
  summary: 'After MULTIPLE_MATCH_FOUND the client repeats the search with the optional fields of step 2',
  run: (exchanges) => {
    const searches = exchanges.filter((x) => x.operation?.id === 'find-member-v2');
    const at = searches.findIndex(
      (x) => answerCodes(x).includes('MULTIPLE_MATCH_FOUND') && !OPTIONAL.some((f) => fieldsOf(x).has(f)),
    );
    if (at === -1) return skip('The client made no step-1 search that was answered MULTIPLE_MATCH_FOUND');
    const next = searches[at + 1];
    if (!next) return fail('Expected a step-2 search after MULTIPLE_MATCH_FOUND, received none');
    const added = OPTIONAL.filter((f) => fieldsOf(next).has(f));
    return added.length > 0
      ? pass(`Step 2 added ${added.join(', ')}`)
      : fail(`Expected step 2 with ${OPTIONAL.join(', ')} added, received the search again without them`);
  },
};
