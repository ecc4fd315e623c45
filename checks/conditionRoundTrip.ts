import { fail, pass, type Check } from '../core/check.ts';
import { isRecord } from '../core/exchange.ts';
import { listBrief } from './listBrief.ts';
import { describe, readObject } from './readJson.ts';

const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

/** `patient/<id>` naming the same id, the letter case of `patient` ignored (DEC-D3-34); a URL ending so passes. */
function samePatientReference(sent: unknown, got: unknown): boolean {
  if (typeof sent !== 'string' || typeof got !== 'string') return false;
  const id = (r: string) => /(?:^|\/)patient\/([^/]+)$/i.exec(r.trim())?.[1];
  return id(sent) !== undefined && id(sent) === id(got);
}

/** Every member of `sent` (strings and numbers) has the same value in `got`; members only in `got` are ignored. */
function holds(sent: unknown, got: unknown): boolean {
  if (isRecord(sent))
    return isRecord(got) && Object.entries(sent).every(([k, v]) => v === null || v === undefined || holds(v, got[k]));
  if (Array.isArray(sent)) return Array.isArray(got) && sent.every((v) => got.some((g) => holds(v, g)));
  return sent === got;
}

/**
 * The created Condition carries what was sent (document 3, 4.4: "the created Condition"; DEC-D3-33):
 * each note sent is returned with its `text` and an `authorReference` naming the same patient
 * (DEC-D3-34), and each evidence detail sent is returned with its `display` and the members of its
 * `identifier`. Compared by meaning: order of the lists, members the documents do not name or the
 * target adds (`reference` on responses, ids, `meta`), and null versus absent are not judged.
 */
export function conditionRoundTrip(sent: Record<string, unknown>): Check {
  return {
    id: 'condition-round-trip',
    summary: 'The created Condition carries the note and evidence sent',
    run: (x) => {
      const body = readObject(x);
      if (!body.ok) return body.finding;
      if (body.value.resourceType !== 'Condition')
        return fail(`Expected a Condition, received ${describe(body.value)}`);
      const missing: string[] = [];
      const notes = records(body.value.note);
      for (const n of records(sent.note)) {
        const sentRef = isRecord(n.authorReference) ? n.authorReference.reference : undefined;
        const found = notes.some(
          (g) =>
            g.text === n.text &&
            (sentRef === undefined ||
              samePatientReference(sentRef, isRecord(g.authorReference) ? g.authorReference.reference : undefined)),
        );
        if (!found) missing.push(`note "${String(n.text)}" by ${String(sentRef)}`);
      }
      const details = records(body.value.evidence).flatMap((e) => records(e.detail));
      for (const e of records(sent.evidence))
        for (const d of records(e.detail)) {
          if (!details.some((g) => g.display === d.display && holds(d.identifier, g.identifier)))
            missing.push(`evidence detail "${String(d.display)}"`);
        }
      const evidence = { notes: notes.length, details: details.length, missing: missing.length };
      if (missing.length === 0) return pass('note and evidence as sent', evidence);
      return fail(`Expected the note and evidence sent, received a Condition without ${listBrief(missing)}`, evidence);
    },
  };
}
