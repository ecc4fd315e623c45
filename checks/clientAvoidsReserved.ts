import { fail, pass, type Check } from '../core/check.ts';
import type { ClientRequest } from '../core/clientRequest.ts';

/**
 * An external integrator does not consume an operation reserved for the operator's own products
 * (Document 1 section 1, DEC-D1-33; Document 2 section 1, DEC-D2-33; Document 3 section 1,
 * DEC-D3-18).
 */
export const clientAvoidsReserved: Check<ClientRequest> = {
  id: 'client-avoids-reserved',
  summary: "An external integrator's request addresses no operation reserved for the operator's products",
  run: (request) =>
    request.operation.reservedForOperator
      ? fail(
          `Expected no call of ${request.operation.id} (reserved for the operator's own products), received a ${request.method} ${request.rawPath}`,
          { operation: request.operation.id },
        )
      : pass(`${request.operation.id} is open to external integrators`),
};
