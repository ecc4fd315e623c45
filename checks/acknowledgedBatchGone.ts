import { fail, pass, show, type Check } from '../core/check.ts';
import { readBundle } from './readJson.ts';

/**
 * After Ack Remittance Receipt the batch is no longer listed (document 1, section 3 and 4.8):
 * no entry of the pending list (4.6) has the acknowledged batch id.
 */
export function acknowledgedBatchGone(batchId: string): Check {
  return {
    id: 'acknowledged-batch-gone',
    summary: 'An acknowledged batch is no longer listed as pending',
    run: (x) => {
      const read = readBundle(x);
      if (!read.ok) return read.finding;
      const listed = read.value.resources.some(
        (r) => (typeof r.id === 'string' || typeof r.id === 'number') && String(r.id) === batchId,
      );
      const entries = read.value.resources.length;
      return listed
        ? fail(`Expected batch ${show(batchId)} gone from the pending list, received it among ${entries} entries`, {
            entries,
          })
        : pass(`batch ${show(batchId)} not among ${entries} pending entries`, { entries });
    },
  };
}
