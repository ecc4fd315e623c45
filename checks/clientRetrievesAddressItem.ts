import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { type ClientExchange, fieldsOf, jsonOf } from '../core/clientRequest.ts';

/**
 * Document 2, 4.6: "repeated calls may be needed to drill down until an item with type `Address`
 * appears; its `key` is then passed to 4.7" (DEC-D2-11). Judged on the client's address requests in
 * order: every retrieve sends as `id` the key of an item that an earlier search answered with type
 * `Address` (the `id` compared decoded, so that how `|` is sent is left to `client-encodes-pipe`),
 * or a key no search of the workspace answered that the retrieve shows to be an Address item's: a
 * key the client stored earlier (DEC-C-09). A key a search answered with another type is never one.
 */
export const clientRetrievesAddressItem: Check<readonly ClientExchange[]> = {
  id: 'client-retrieves-address-item',
  summary: 'The client retrieves only the key of an item of type Address that a search answered',
  run: (exchanges) => {
    const typeOf = new Map<string, string>();
    const retrieved: string[] = [];
    const wrong: string[] = [];
    const storedKeys: string[] = [];
    for (const x of exchanges) {
      if (x.operation?.id === 'search-address' && x.status === 200) {
        const items = jsonOf(x.responseBody);
        for (const item of Array.isArray(items) ? items : []) {
          const { key, addressType } = (item ?? {}) as { key?: unknown; addressType?: unknown };
          if (typeof key === 'string' && typeof addressType === 'string') typeOf.set(key, addressType);
        }
      }
      if (x.operation?.id === 'retrieve-address') {
        const id = fieldsOf(x).get('id') ?? '';
        retrieved.push(id);
        const type = typeOf.get(id);
        // A key no search here answered is one the client stored earlier (DEC-C-09): fine when it
        // is an Address item's, which the answer shows (only Address items are retrieved, others give []).
        const retrievedItems = jsonOf(x.responseBody);
        const stored =
          type === undefined && x.status === 200 && Array.isArray(retrievedItems) && retrievedItems.length > 0;
        if (stored) storedKeys.push(id);
        else if (type !== 'Address')
          wrong.push(`${show(id)} (${type === undefined ? 'no search answered it, and it retrieved nothing' : type})`);
      }
    }
    if (retrieved.length === 0) return skip('The client retrieved no address');
    return wrong.length === 0
      ? pass(
          `Retrieved Address item(s) ${retrieved.join(', ')}${storedKeys.length > 0 ? ` (stored earlier: ${storedKeys.join(', ')})` : ''}`,
        )
      : fail(`Expected the key of an Address item a search answered, received ${wrong.join(', ')}`);
  },
};
