import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { type ClientExchange, jsonOf, lastPathSegment } from '../core/clientRequest.ts';

/** The batch ids a pending list answered (a searchset Bundle of batches, D1 4.6). */
function listedIds(body: unknown): string[] {
  const entries = (body as { entry?: unknown } | undefined)?.entry;
  return (Array.isArray(entries) ? entries : []).flatMap((e) => {
    const id = (e as { resource?: { id?: unknown } } | null)?.resource?.id;
    return typeof id === 'string' ? [id] : [];
  });
}

/**
 * Document 1, 4.7: the get's "`id` (String) must be an id returned by 4.6"; section 1: "a caller
 * lists the pending remittance batches of its site, fetches one batch, and acknowledges (receipts)
 * it after import" (DEC-C-08). Judged on the client's batch requests in order: every get and every
 * acknowledgement names a batch that a pending list answered earlier in the workspace.
 */
export const clientFetchesListedBatch: Check<readonly ClientExchange[]> = {
  id: 'client-fetches-listed-batch',
  summary: 'The client fetches and acknowledges only batches a pending list answered',
  run: (exchanges) => {
    const listed = new Set<string>();
    const named: string[] = [];
    const wrong: string[] = [];
    for (const x of exchanges) {
      const op = x.operation?.id;
      if (op === 'list-pending-remittances' && x.status === 200)
        for (const id of listedIds(jsonOf(x.responseBody))) listed.add(id);
      if (op !== 'get-remittance-details' && op !== 'ack-remittance') continue;
      const id = lastPathSegment(x);
      named.push(id);
      if (!listed.has(id))
        wrong.push(`${op === 'ack-remittance' ? 'an acknowledgement' : 'a get'} of ${show(id)} that no list answered`);
    }
    if (named.length === 0) return skip('The client fetched and acknowledged no batch');
    return wrong.length === 0
      ? pass(`Every batch named (${[...new Set(named)].join(', ')}) was answered by a pending list first`)
      : fail(`Expected the id of a batch a pending list answered (4.6), received ${wrong.join('; ')}`, { wrong });
  },
};
