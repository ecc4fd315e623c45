import { fail, pass, type Check } from '../core/check.ts';
import type { ClientRequest } from '../core/clientRequest.ts';

/**
 * The client uses the supported version of an operation rather than a deprecated one (Document 1
 * sections 4.1 and 9: Find Member version 1 is deprecated, version 2 is the supported one). No
 * sunset date is set, yet "migration to version 2 is mandatory for new and existing integrations"
 * (4.1): bound at MUST for a partner (D1-4.1-16); the operator's own products are recorded at INFO
 * (app/judgeClientRequest.ts).
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
