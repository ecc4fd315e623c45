import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { type ClientExchange, fieldsOf, jsonOf } from '../core/clientRequest.ts';

/**
 * Document 2, 4.6: "repeated calls may be needed to drill down until an item with type `Address`
 * appears; its `key` is then passed to 4.7" (DEC-D2-11). Judged on the client's address requests in
 * order: every retrieve sends as `id` the key of an item that an earlier search answered with type
 * `Address` (the `id` compared decoded, so that how `|` is sent is left to `client-encodes-pipe`).
 */
export const clientRetrievesAddressItem: Check<readonly ClientExchange[]> = {
  id: 'client-retrieves-address-item',
  summary: 'The client retrieves only the key of an item of type Address that a search answered',
  run: (exchanges) => {
    const typeOf = new Map<string, string>();
    const retrieved: string[] = [];
    const wrong: string[] = [];
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
        if (type !== 'Address') wrong.push(`${show(id)} (${type === undefined ? 'no search answered it' : type})`);
      }
    }
    if (retrieved.length === 0) return skip('The client retrieved no address');
    return wrong.length === 0
      ? pass(`Retrieved Address item(s) ${retrieved.join(', ')}`)
      : fail(`Expected the key of an Address item a search answered, received ${wrong.join(', ')}`);
  },
};
