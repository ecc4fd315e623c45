import { fail, pass, show, skip, type Check } from '../core/check.ts';
import { type ClientExchange, jsonOf, lastPathSegment } from '../core/clientRequest.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The patient ids a Condition's notes name (`note[].authorReference.reference` = `patient/<id>`, 2.5). */
function notedPatients(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.note)) return [];
  return body.note.flatMap((n: unknown) => {
    const reference = isRecord(n) && isRecord(n.authorReference) ? n.authorReference.reference : undefined;
    const id = typeof reference === 'string' ? /^patient\/([^/]+)$/i.exec(reference.trim())?.[1] : undefined;
    return id === undefined ? [] : [id];
  });
}

const ABOUT_THE_PATIENT = new Set(['get-patient', 'update-patient', 'delete-patient', 'create-condition']);

/**
 * Document 3, 4.4: create answers the Patient "with its new `id` (to be stored by the caller)";
 * get, update and delete address the patient by `{patient_id}`, and update sends the Patient body
 * "with `id`". Judged on the client's patient requests after a successful create: each get,
 * update and delete names an id a create answered (or one the client stored earlier, which the
 * workspace answers with a success: DEC-C-09), each update body carries the id of its path, and each
 * condition's note names such a patient (`patient/<id>`, 2.5).
 */
export const clientUsesCreatedPatientId: Check<readonly ClientExchange[]> = {
  id: 'client-uses-created-patient-id',
  summary: 'The client reads, updates and deletes the patient by the id its create answered',
  run: (exchanges) => {
    const created = new Set<string>();
    const stored = new Set<string>();
    const storedSeen: string[] = [];
    const wrong: string[] = [];
    let judged = 0;
    for (const x of exchanges) {
      const op = x.operation?.id;
      if (op === 'create-patient' && x.status >= 200 && x.status < 300) {
        const answer = jsonOf(x.responseBody);
        if (isRecord(answer) && typeof answer.id === 'string') created.add(answer.id);
        continue;
      }
      // Requests before any create cannot use its id: they are not this flow.
      if (created.size === 0 || op === undefined || !ABOUT_THE_PATIENT.has(op)) continue;
      judged++;
      if (op === 'create-condition') {
        const named = notedPatients(jsonOf(x.body));
        if (!named.some((id) => created.has(id) || stored.has(id))) wrong.push(`a condition naming ${show(named)}`);
        continue;
      }
      const id = lastPathSegment(x);
      // An id the client stored earlier (D3 4.4: "to be stored by the caller", DEC-C-09) names a
      // patient the workspace holds: its answer is a success.
      if (!created.has(id) && !stored.has(id)) {
        if (x.status >= 200 && x.status < 300) {
          stored.add(id);
          storedSeen.push(id);
        } else wrong.push(`${x.method} of patient ${show(id)}`);
      }
      if (op === 'update-patient') {
        const body = jsonOf(x.body);
        const bodyId = isRecord(body) ? body.id : undefined;
        if (bodyId !== id) wrong.push(`an update body with id ${show(bodyId)} for patient ${show(id)}`);
      }
    }
    if (created.size === 0) return skip('The client created no patient');
    if (judged === 0) return skip('The client made no request about the patient it created');
    const ids = [...created].join(', ');
    return wrong.length === 0
      ? pass(
          `${judged} request(s) used the id the create answered (${ids})${storedSeen.length > 0 ? ` or one stored earlier that the workspace holds (${storedSeen.join(', ')})` : ''}`,
          { created: [...created] },
        )
      : fail(`Expected the id the create answered (${ids}), received ${wrong.join('; ')}`, { wrong });
  },
};
