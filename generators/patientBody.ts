/**
 * Patients as a caller creates them (Document 3, 2.4, 4.4), derived from the request schema
 * (`patient-create-request.schema.json`) with the choices of the decisions pinned: FHIR codes for
 * `gender`, name `use`, telecom `system`/`use` and address `use`/`type`, where the documents list
 * none (DEC-D3-32); one name with one given name and one title, at most one telecom per system
 * and one address (the table's 0-1, DEC-D3-32); one extension per documented url under the
 * target's `{ref_url}` (DEC-D3-30); `birthDate`, never the table's `birthdate` beside it
 * (DEC-D3-31); no empty text or list (DEC-D3-66); never the server-owned `id`, `meta` and item
 * ids (create has no id, D3-4.4-03; item ids are returned on read, D3-2.4-07; DEC-D3-69), nor
 * `active` and `deceasedBoolean` (returned on read, 2.4; members the target assigns, DEC-D3-33);
 * and only the members 2.4 names (no HumanName `use`, `text` or `suffix`, no address `use`). Every value
 * has the form its member names, so a server that checks forms refuses none (DEC-D3-68): a telecom
 * `value` of `system` `email` is an e-mail address, of `phone` or `sms` a telephone number, and
 * `birthDate` a calendar date in the past. The stateful sequences and the patients suite send these bodies.
 */
import fc from 'fast-check';
import { type JsonBody, validBody } from './bodyArbitrary.ts';

/** The documented Patient extensions (`{ref_url}/extension/patient/<name>`, D3 2.4). */
export const PATIENT_EXTENSIONS = ['insurer', 'registrationid', 'authorizationno'] as const;

// Deriving an arbitrary from the schemas costs a few hundred milliseconds: each is built once.
const patients = new Map<string, fc.Arbitrary<JsonBody>>();
let conditions: fc.Arbitrary<JsonBody> | undefined;

/** An arbitrary of create-patient bodies for a target whose `{ref_url}` is `refUrl`. */
export function patientBody(refUrl: string): fc.Arbitrary<JsonBody> {
  const built = patients.get(refUrl) ?? derivePatientBody(refUrl);
  patients.set(refUrl, built);
  return built;
}

/** Where a generated Condition names its patient (`note[].authorReference.reference`); see {@link conditionFor}. */
export const CONDITION_PATIENT_PLACEHOLDER = 'patient/{patient}';

/**
 * An arbitrary of create-condition bodies (Document 3, 2.5, 4.4) derived from the request schema,
 * with no empty text or list (DEC-D3-64), nothing the server assigns (`id`, `meta`, and the detail
 * `reference` added "on responses", DEC-D3-69), an attachment location (`identifier.value`) that
 * is a URL in every reading, and the patient reference left as {@link CONDITION_PATIENT_PLACEHOLDER}:
 * ids are known only when the patient exists.
 */
export function conditionBody(): fc.Arbitrary<JsonBody> {
  conditions ??= validBody('condition-create-request.schema.json', {
    overrides: {
      'note.authorReference.reference': CONDITION_PATIENT_PLACEHOLDER,
      'evidence.detail.identifier.value': fc
        .stringMatching(/^[a-z0-9]{1,8}$/)
        .map((name) => `https://files.example/attachments/${name}.pdf`),
    },
    omit: ['id', 'meta', 'evidence.detail.reference'],
    nonEmpty: true,
    maxItems: 2,
  });
  return conditions;
}

/** An e-mail address (`local@host.example`, DEC-D3-68) made from a generated text, lower case. */
const emailOf = (text: string): string => `${text.toLowerCase().replace(/[^a-z0-9]/g, '') || 'x'}@mail.example`;

/** A telephone number of digits (the fixtures' UK form `07700 900nnn`, DEC-D3-68) made from a generated text. */
const phoneOf = (text: string): string => {
  const n = [...text].reduce((sum, ch, i) => sum + ch.charCodeAt(0) * (i + 1), 0) % 1000;
  return `07700 900${String(n).padStart(3, '0')}`;
};

/** The first year whose dates are not past for every run: later generated birth dates move 80 years back. */
const FIRST_FUTURE_YEAR = 2020;

/**
 * The body with each value in the form its member names (DEC-D3-68): a telecom `value` made an
 * e-mail address or a telephone number after its `system`, a `birthDate` from 2020 on moved 80
 * years back (a multiple of four: 29 February stays a date). Deterministic, so values still shrink.
 */
export function withDocumentedForms(body: JsonBody): JsonBody {
  const out: JsonBody = { ...body };
  if (Array.isArray(body.telecom))
    out.telecom = body.telecom.map((t: unknown) => {
      if (t === null || typeof t !== 'object' || Array.isArray(t)) return t;
      const entry = t as Record<string, unknown>;
      const text = String(entry.value ?? '');
      if (entry.system === 'email') return { ...entry, value: emailOf(text) };
      if (entry.system === 'phone' || entry.system === 'sms') return { ...entry, value: phoneOf(text) };
      return entry;
    });
  const birth = typeof body.birthDate === 'string' ? /^(\d{4})(-\d{2}-\d{2})$/.exec(body.birthDate) : null;
  if (birth && Number(birth[1]) >= FIRST_FUTURE_YEAR) out.birthDate = `${Number(birth[1]) - 80}${birth[2]}`;
  return out;
}

/** The generated Condition naming patient `patientId` (`patient/<id>`, DEC-D3-33). */
export function conditionFor(body: JsonBody, patientId: string): JsonBody {
  return JSON.parse(JSON.stringify(body).split(CONDITION_PATIENT_PLACEHOLDER).join(`patient/${patientId}`));
}

function derivePatientBody(refUrl: string): fc.Arbitrary<JsonBody> {
  return validBody('patient-create-request.schema.json', {
    overrides: {
      'extension.url': fc.constantFrom(...PATIENT_EXTENSIONS.map((n) => `${refUrl}/extension/patient/${n}`)),
      gender: fc.constantFrom('male', 'female', 'other', 'unknown'),
      'telecom.system': fc.constantFrom('phone', 'email', 'sms'),
      'telecom.use': fc.constantFrom('home', 'mobile'),
      'address.type': fc.constantFrom('postal', 'physical', 'both'),
    },
    itemLimits: { name: 1, 'name.given': 1, 'name.prefix': 1, address: 1 },
    uniqueBy: { telecom: 'system', extension: 'url' },
    // `active` and `deceasedBoolean` are "returned on read" and the target's (DEC-D3-33); the
    // HumanName's `use`, `text` and `suffix` and the address `use` are not members of 2.4.
    omit: [
      'id',
      'meta',
      'birthdate',
      'active',
      'deceasedBoolean',
      'extension.id',
      'name.use',
      'name.text',
      'name.suffix',
      'telecom.id',
      'address.use',
      'address.id',
    ],
    nonEmpty: true,
    maxItems: 2,
  }).map(withDocumentedForms);
}
