/**
 * The one reader of a payor's identity in a Contract (Document 3, 2.6 and 4.5; DEC-D3-37): checks,
 * suites and the payor state machine ask here, so no part of the suite reads a listing more
 * narrowly than another. A Contract names a payor by
 * - an `authority[].reference` `Organization/P` (an insurer payor, `I`) or `Person/P` (a contact
 *   payor, `C`), also at the end of an absolute URL;
 * - an asset `context[].reference.reference` `I/P`, `C/P`, `Payor/I-P` or `Payor/C-P`, in any
 *   term or nested term group;
 * and, for `contractNamesPayor`, by its own `id` P. Never throws on odd shapes.
 */

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const records = (value: unknown): Rec[] => (Array.isArray(value) ? value.filter(isRec) : []);

/** Nested term groups are followed this deep at most (guards against hostile nesting). */
const MAX_TERM_DEPTH = 8;

export type PayorType = 'I' | 'C';

export interface NamedPayor {
  type: PayorType;
  id: string;
  /** Where the Contract names it. */
  via: 'authority' | 'context';
}

const AUTHORITY = /(?:^|\/)(Organization|Person)\/([^/]+)$/;
const CONTEXT = /^(?:([IC])\/(.+)|Payor\/([IC])-(.+))$/;

/** Every payor a Contract names, authority first, in order and with repeats. */
export function payorsNamedBy(contract: Rec): NamedPayor[] {
  const out: NamedPayor[] = [];
  for (const a of records(contract.authority)) {
    const m = typeof a.reference === 'string' ? AUTHORITY.exec(a.reference.trim()) : null;
    if (m) out.push({ type: m[1] === 'Organization' ? 'I' : 'C', id: m[2], via: 'authority' });
  }
  const terms: Rec[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_TERM_DEPTH) return;
    for (const t of records(value)) {
      terms.push(t);
      walk(t.group, depth + 1);
    }
  };
  walk(contract.term, 0);
  for (const t of terms)
    for (const asset of records(t.asset))
      for (const ctx of records(asset.context)) {
        const ref = isRec(ctx.reference) ? ctx.reference.reference : undefined;
        const m = typeof ref === 'string' ? CONTEXT.exec(ref.trim()) : null;
        if (m) out.push({ type: (m[1] ?? m[3]) as PayorType, id: m[2] ?? m[4], via: 'context' });
      }
  return out;
}

/** The payor a listed Contract stands for: the first it names by authority, else by context. */
export function payorOf(contract: Rec): NamedPayor | undefined {
  return payorsNamedBy(contract)[0];
}

/**
 * Whether a Contract names payor `payor` (DEC-D3-37), as an insurer payor only or a contact too
 * (`contacts`, default true), or by its own `id`. Exact comparison of the id.
 */
export function contractNamesPayor(contract: Rec, payor: string, o: { contacts?: boolean } = {}): boolean {
  const contacts = o.contacts ?? true;
  if (contract.id === payor) return true;
  return payorsNamedBy(contract).some((p) => p.id === payor && (contacts || p.type === 'I'));
}
