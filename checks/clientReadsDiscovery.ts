import { fail, pass, type Check } from '../core/check.ts';
import type { ClientExchange } from '../core/clientRequest.ts';
import type { ServiceId } from '../spec/types.ts';

/** A request of an operation, with the discovery documents its client had fetched before it. */
export interface DiscoveryRead {
  request: ClientExchange;
  /** The services whose discovery document the client fetched (and was answered) before the request. */
  fetched: ReadonlySet<ServiceId>;
}

/**
 * Document 1, section 1: "The address of each operation is read from a discovery document by a
 * named key" (Documents 2 and 3 likewise; DEC-C-02). A certification workspace publishes its
 * addresses only in its discovery documents, at a base of its own, so a client that reads them
 * has fetched its service's document before it calls an operation there; a request without that
 * fetch used an address of the client's own, even when the address is right (derived from the
 * token endpoint's, or kept from an earlier workspace). Fetching the document once and keeping
 * it is the client's choice (DEC-C-10).
 */
export const clientReadsDiscovery: Check<DiscoveryRead> = {
  id: 'client-reads-discovery',
  summary: "The client fetched the operation's discovery document before calling it",
  appliesTo: (s) => s.request.operation !== undefined,
  run: ({ request, fetched }) => {
    const op = request.operation;
    if (!op) return pass('No operation addressed');
    return fetched.has(op.service)
      ? pass(`The ${op.service} discovery document was fetched before ${request.method} ${request.rawPath}`)
      : fail(
          `Expected the address of ${op.id} to be read from the ${op.service} discovery document (key ${op.discoveryKey}), received ${request.method} ${request.rawPath} from a client that had not fetched that document`,
          { service: op.service, key: op.discoveryKey },
        );
  },
};
