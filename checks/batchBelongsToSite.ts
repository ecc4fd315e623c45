import { fail, pass, show, type Check } from '../core/check.ts';
import { readObject } from './readJson.ts';

/**
 * A batch is addressed to the calling site: `msgRecipient` is the site id (document 1, 2.6 and
 * 4.6: "only that site's batches are returned").
 */
export function batchBelongsToSite(siteId: string): Check {
  return {
    id: 'batch-belongs-to-site',
    summary: 'The batch is addressed to the calling site (msgRecipient)',
    run: (x) => {
      const read = readObject(x);
      if (!read.ok) return read.finding;
      const recipient = read.value.msgRecipient;
      return recipient === siteId
        ? pass(`msgRecipient ${show(siteId)}`)
        : fail(`Expected msgRecipient ${show(siteId)}, received ${show(recipient, 60)}`, { msgRecipient: recipient });
    },
  };
}
