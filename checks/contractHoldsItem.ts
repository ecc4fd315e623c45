import { fail, pass, show, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { codingsOf, valuedItemsOf } from './contract.ts';
import { describe, readObject } from './readJson.ts';

export interface ContractItem {
  /** The coding system sent (`ISC`, or `{ref_url}/procedure`). */
  system: string;
  code: string;
  /** The fee sent as `net.value`, when the item carries one. */
  net?: number;
}

/** The last segment of a system (`…/procedure` gives `procedure`), since `{ref_url}` varies by target. */
const lastSegment = (system: string): string => system.slice(system.lastIndexOf('/') + 1);

const sameSystem = (sent: string, got: unknown): boolean =>
  typeof got === 'string' && (got === sent || (lastSegment(sent) !== '' && lastSegment(got) === lastSegment(sent)));

const cents = (value: number): number => Math.round(value * 100);

/**
 * The Contract a set-contract-service / -with-procedure / -price answers holds the item that was
 * stored (document 3, 4.5): a valued item (any term or asset) with a coding of the item's code
 * whose system equals the item's or has the same last path segment (`{ref_url}` differs between
 * targets), and, when a fee was sent, `net.value` equal to it to the cent.
 */
export function contractHoldsItem(item: ContractItem): Check {
  const wanted = `${item.system}|${item.code}${item.net === undefined ? '' : ` with net.value ${item.net}`}`;
  return {
    id: 'contract-holds-item',
    summary: `The returned Contract holds the valued item ${wanted}`,
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      if (body.value.resourceType !== 'Contract') return fail(`Expected a Contract, received ${describe(body.value)}`);
      const items = valuedItemsOf(body.value);
      const coded = items.filter((i) =>
        codingsOf(i).some((c) => c.code === item.code && sameSystem(item.system, c.system)),
      );
      const nets = coded.map((i) => (isRecord(i.net) ? i.net.value : undefined));
      const evidence = {
        valuedItems: items.length,
        matching: coded.length,
        nets: nets.slice(0, 10).map((n) => (typeof n === 'number' ? n : show(n, 40))),
      };
      if (coded.length === 0) {
        return fail(
          `Expected a valued item ${wanted}, received none coded ${item.system}|${item.code} among ${items.length} valued ${items.length === 1 ? 'item' : 'items'}`,
          evidence,
        );
      }
      if (item.net === undefined) return pass(`valued item ${item.system}|${item.code}`, evidence);
      const net = item.net;
      if (nets.some((n) => typeof n === 'number' && Number.isFinite(n) && cents(n) === cents(net)))
        return pass(`valued item ${wanted}`, evidence);
      return fail(
        `Expected a valued item ${wanted}, received it with net.value ${nets.map((n) => show(n, 40)).join(', ')}`,
        evidence,
      );
    },
  };
}
