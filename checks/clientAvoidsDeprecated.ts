import { fail, pass, type Check } from '../core/check.ts';
import type { ClientRequest } from '../core/clientRequest.ts';

/**
 * The client uses the supported version of an operation rather than a deprecated one (Document 1
 * sections 4.1 and 9: Find Member version 1 is deprecated, version 2 is the supported one). The
 * documents set no sunset date, so a use of version 1 is recorded, never failed at MUST.
 */
export const clientAvoidsDeprecated: Check<ClientRequest> = {
  id: 'client-avoids-deprecated',
  summary: 'The request uses no deprecated operation version',
  run: (request) =>
    /deprecated/i.test(request.operation.summary)
      ? fail(
          `Expected the supported version, received a call of ${request.operation.id} (${request.operation.summary})`,
        )
      : pass(`${request.operation.id} is not deprecated`),
};
