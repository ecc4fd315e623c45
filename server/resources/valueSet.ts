/**
 * A master code set as a ValueSet (Document 2, 2.2): `expansion` with `total`, `offset` and the
 * page's `contains[]`; each item with `requiresProcedure` (when it has one) and the `lastUpdated`
 * extension entry; specialties also carry the profession they belong to (DEC-D2-06).
 */
import type { CodeItem } from '../repo/model.ts';
import { REF_URL, refExtension } from './urls.ts';

/** The display of a code of a code set (the code itself when unknown). */
export type CodeDisplay = (setName: string, code: string) => string;

export const PRACTITIONER_ROLE_EXTENSION = refExtension('practitioner-role');

export const codeSystemOf = (setName: string, scheme: string | undefined): string =>
  scheme === undefined ? `${REF_URL}/valueset/${setName}` : `${REF_URL}/valueset/${setName}/${scheme}`;

export function valueSetItemOf(setName: string, item: CodeItem): Record<string, unknown> {
  return {
    system: codeSystemOf(setName, item.scheme),
    code: item.code,
    display: item.display,
    extension: [
      ...(item.requiresProcedure === undefined
        ? []
        : [{ url: refExtension('requiresProcedure'), valueString: item.requiresProcedure }]),
      ...(item.profession === undefined ? [] : [{ url: PRACTITIONER_ROLE_EXTENSION, valueString: item.profession }]),
      { id: 'lastUpdated', url: refExtension('lastUpdated'), valueDateTime: item.lastUpdated },
    ],
  };
}

export interface ValueSetPage {
  id: string;
  name: string;
  tag: { code: string; display: string }[];
  total: number;
  offset: number;
  contains: Record<string, unknown>[];
}

export function valueSetOf(p: ValueSetPage): Record<string, unknown> {
  return {
    resourceType: 'ValueSet',
    id: p.id,
    meta: { tag: p.tag },
    name: p.name,
    status: 'active',
    expansion: { total: p.total, offset: p.offset, contains: p.contains },
  };
}
