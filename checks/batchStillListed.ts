import { fail, pass, show, type Check } from '../core/check.ts';
import { readBundle } from './readJson.ts';

/**
 * Without the acknowledgement a batch keeps being returned (document 1, section 3): after a Get,
 * the pending list (4.6) still holds the batch. The mirror of acknowledged-batch-gone.
 */
export function batchStillListed(batchId: string): Check {
  return {
    id: 'batch-still-listed',
    summary: 'A batch that was not acknowledged is still listed',
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const entries = read.value.resources.length;
      const listed = read.value.resources.some(
        (r) => (typeof r.id === 'string' || typeof r.id === 'number') && String(r.id) === batchId,
      );
      return listed
        ? pass(`batch ${show(batchId)} still among ${entries} pending entries`, { entries })
        : fail(`Expected batch ${show(batchId)} still listed, received a list of ${entries} without it`, { entries });
    },
  };
}
