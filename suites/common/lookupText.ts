/**
 * Whether a lookup entry matches the search text `text` (Document 2, 4.2, 4.3, 7; DEC-D2-07). The
 * documents name `text` only in the error rule ("HTTP 400 when the `text` parameter is absent"),
 * and 4.2 says "The description of the `text` parameter named in the error rule: not shown." So
 * no match rule is stated: a record passes when each word of the text, letter case and accents
 * folded away as for the register's names (DEC-R-11), is in its name parts (a practitioner) or in
 * its name or address (a location; a postcode also with spaces dropped). A server matching
 * exactly, by prefix, by part of a word, ignoring case or accents, or on a whole address, is not
 * failed; a record whose name the text is nowhere in is.
 */
import { isRecord } from '../../core/exchange.ts';
import { foldedName } from './registerFilters.ts';

type Rec = Record<string, unknown>;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const strings = (values: unknown[]): string[] => values.filter((v): v is string => typeof v === 'string' && v !== '');
const compact = (s: string) => foldedName(s).replace(/\s+/g, '');

/** Each word of the text, folded, is in the folded parts; undefined when there are no parts. */
function wordsIn(parts: string[], text: string): boolean | undefined {
  if (parts.length === 0) return undefined;
  const haystack = foldedName(parts.join(' '));
  const words = foldedName(text)
    .split(/\s+/)
    .filter((w) => w !== '');
  return words.every((w) => haystack.includes(w));
}

/** 2.3: a lookup Practitioner matches on its `name[]` (`family`, `given[]`; `prefix`, `text` if shown). */
export function practitionerMatchesText(resource: Rec, text: string): boolean | undefined {
  const parts = list(resource.name).flatMap((n) =>
    isRecord(n) ? strings([n.text, n.family, ...list(n.given), ...list(n.prefix), ...list(n.suffix)]) : [],
  );
  return wordsIn(parts, text);
}

/** 2.3: a lookup Location matches on its `name` or its `address` (`line[]`, `postalCode`, ...). */
export function locationMatchesText(resource: Rec, text: string): boolean | undefined {
  const addresses = list(resource.address).filter(isRecord);
  const postcodes = strings(addresses.map((a) => a.postalCode));
  const parts = strings([
    resource.name,
    ...addresses.flatMap((a) => [a.text, ...list(a.line), a.city, a.district, a.state, a.postalCode]),
  ]);
  const words = wordsIn(parts, text);
  if (words === undefined) return undefined;
  return words || (compact(text) !== '' && postcodes.some((p) => compact(p).includes(compact(text))));
}
