import { fail, pass, type Check } from '../core/check.ts';
import type { RespondedExchange } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { readBundle } from './readJson.ts';

export interface ListBeforeAfter {
  /** Batch ids listed before the request that must not change anything. */
  before: readonly string[];
  /** The pending list fetched after it. */
  after: RespondedExchange;
}

/**
 * A Get or Ack whose id matches nothing leaves the state unchanged (document 1, section 3): the
 * pending list holds the same batches before and after. Compared as sets: the documents fix no
 * order of the pending list (DEC-D1-40).
 */
export const pendingListUnchanged: Check<ListBeforeAfter> = {
  id: 'pending-list-unchanged',
  summary: 'A refused Get or Ack leaves the pending list as it was',
  run: ({ before, after }) => {
    const read = readBundle(after);
    if (!read.ok) return read.finding;
    const now = new Set(
      read.value.resources
        .map((r) => r.id)
        .filter((id) => typeof id === 'string' || typeof id === 'number')
        .map(String),
    );
    const was = new Set(before);
    const gone = [...was].filter((id) => !now.has(id));
    const added = [...now].filter((id) => !was.has(id));
    if (gone.length === 0 && added.length === 0) return pass(`${now.size} batches, unchanged`, { batches: now.size });
    return fail(
      `Expected the same pending batches, received ${gone.length} gone${gone.length > 0 ? ` (${listBrief(gone, 3)})` : ''} and ${added.length} added${added.length > 0 ? ` (${listBrief(added, 3)})` : ''}`,
      { gone, added },
    );
  },
};
