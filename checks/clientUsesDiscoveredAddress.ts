import { fail, pass, type Check } from '../core/check.ts';
import type { ClientExchange } from '../core/clientRequest.ts';

/**
 * The address of each operation is read from a discovery document by its key (Document 1,
 * section 1; Document 2 and 3 likewise): a certification workspace publishes its addresses only
 * there, so a request at no discovered address shows an address the client did not read from
 * discovery (hard-coded, or mistyped). A browser's CORS preflight (D3 4.2: logout is "Executed
 * from a browser") is judged on its address alone: at a discovered address it passes, whatever
 * method it asks leave for.
 */
export const clientUsesDiscoveredAddress: Check<ClientExchange> = {
  id: 'client-uses-discovered-address',
  summary: 'The request is at an address the discovery documents publish',
  run: (x) => {
    if (x.preflight)
      return x.preflight.operation !== undefined || x.own
        ? pass(`The CORS preflight (for ${x.preflight.method}) at ${x.rawPath} is at a discovered address`)
        : fail(
            `Expected an address from the discovery documents, received a CORS preflight (for ${x.preflight.method}) at ${x.rawPath}`,
          );
    if (x.operation === undefined && !x.own && x.servedMethods !== undefined)
      return pass(
        `${x.method} ${x.rawPath} is at a discovered address (no operation is sent there with ${x.method}; the operations there use ${x.servedMethods.join(', ')})`,
      );
    return x.operation !== undefined || x.own
      ? pass(`${x.method} ${x.rawPath} is at an address the discovery documents publish`)
      : fail(`Expected an address from the discovery documents, received ${x.method} ${x.rawPath}`);
  },
};
