import { fail, pass, skip, type Check } from '../core/check.ts';
import type { ClientExchange } from '../core/clientRequest.ts';

const batchId = (x: ClientExchange): string => decodeURIComponent(x.rawPath.split('/').pop() ?? '');

/**
 * A caller lists its pending batches, fetches one and acknowledges it after import (Document 1,
 * sections 1 and 3): every acknowledgement (DELETE) of a batch follows a successful get of that
 * same batch.
 */
export const clientAcknowledgesAfterGet: Check<readonly ClientExchange[]> = {
  id: 'client-acknowledges-after-get',
  summary: 'The client acknowledges a remittance batch only after it has fetched it',
  run: (exchanges) => {
    const acks = exchanges.filter((x) => x.operation?.id === 'ack-remittance');
    if (acks.length === 0) return skip('The client acknowledged no batch');
    const early = acks.filter((ack) => {
      const before = exchanges.slice(0, exchanges.indexOf(ack));
      return !before.some(
        (x) => x.operation?.id === 'get-remittance-details' && x.status === 200 && batchId(x) === batchId(ack),
      );
    });
    return early.length === 0
      ? pass(`Every acknowledgement followed a get of its batch (${acks.map(batchId).join(', ')})`)
      : fail(
          `Expected each batch fetched before its acknowledgement, received an acknowledgement of ${early.map(batchId).join(', ')} with no successful get before it`,
        );
  },
};
